// Imports (issue 15, SPEC §7 "Imports"): catalogue sheets uploaded for a seller, each checked row by
// row before anything is written — the report, the mapping, the dry-run preview and the moves to
// staging — and the import requests sellers send when they cannot map a sheet themselves. The whole
// view is the URL (`?import=<id>&section=preview`, `?tab=requests&request=<id>`), so a reload keeps it.
import { Button, Stack, Tabs } from '@chakra-ui/react';
import { Upload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { IMPORTS_ROUTE, type Import } from '../../../contracts/imports';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { PageHeader } from '../../ui/page-states';
import { useUrlView } from '../../ui/url-view';
import { type ImportPermissions, ImportView } from './import-detail/ImportView';
import { ImportList } from './import-list/ImportList';
import type { UploadPreset } from './import-list/UploadDrawer';
import { RequestList } from './requests/RequestList';
import { type ImportTab, importsHref, parseImportsView, withImport } from './shared/url-state';

const UploadDrawer = lazy(() => import('./import-list/UploadDrawer'));

export default function ImportsPage() {
  const { view, setView } = useUrlView(parseImportsView, importsHref);
  const { can } = useRouteActions(IMPORTS_ROUTE);
  const user = useCurrentUser();
  const isSeller = user.data?.isSeller ?? false;
  const permissions: ImportPermissions = {
    canImport: can('import'),
    canDownloadErrors: can('import'),
    // `edit` on this route is the suggested-title template (Admin by default).
    canEditTemplate: can('edit'),
    showSeller: !isSeller,
    userId: user.data?.id ?? null,
  };

  // The upload drawer: from the header, or from a request (its seller, linked to it).
  const [upload, setUpload] = useState<{ preset: UploadPreset | null } | null>(null);
  const onUploaded = (item: Import) => {
    setUpload(null);
    setView(withImport({ ...view, tab: 'imports', requestId: null }, item.id));
  };

  return (
    <>
      <PageHeader
        title="Imports"
        description="Upload catalogue sheets, see what every row would do, and move them to staging."
        actions={
          permissions.canImport ? (
            <Button colorPalette="brand" onClick={() => setUpload({ preset: null })} data-tour="upload-sheet">
              <Upload /> Upload sheet
            </Button>
          ) : null
        }
      />
      <Stack gap="5">
        <Tabs.Root
          value={view.tab}
          onValueChange={(event) => setView(withImport({ ...view, tab: event.value as ImportTab }, null))}
          colorPalette="brand"
          variant="line"
        >
          <Tabs.List data-tour="import-tabs">
            <Tabs.Trigger value="imports">Imports</Tabs.Trigger>
            <Tabs.Trigger value="requests">Import requests</Tabs.Trigger>
          </Tabs.List>
          {/* The chosen tab's panel (the tab's aria-controls points at it); the other tab has none. */}
          <Tabs.Content value={view.tab} pt="5">
            {view.importId ? (
              <ImportView view={view} setView={setView} permissions={permissions} />
            ) : view.tab === 'requests' ? (
              <RequestList
                view={view}
                setView={setView}
                staff={!isSeller}
                userId={permissions.userId}
                canRequest={permissions.canImport}
                onUploadForRequest={(preset) => setUpload({ preset })}
              />
            ) : (
              <ImportList view={view} setView={setView} showSeller={permissions.showSeller} />
            )}
          </Tabs.Content>
        </Tabs.Root>
      </Stack>
      <Suspense fallback={null}>
        {upload ? (
          <UploadDrawer
            open
            chooseSeller={!isSeller}
            preset={upload.preset}
            onClose={() => setUpload(null)}
            onUploaded={onUploaded}
          />
        ) : null}
      </Suspense>
    </>
  );
}
