import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { BarChart3, ImageUp, Plus } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { PRODUCT_PAGE_SIZES, type ProductSelection } from '../../../contracts/catalog';
import { formatNumber, plural } from '../../../contracts/domain/format';
import type { ExportFormat } from '../../../contracts/exports';
import { conditionsOf, encodeQuery, type QueryTree } from '../../../contracts/query-tree';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { useTagNodes } from '../../services/tag-tree';
import { FileFormatMenu } from '../../ui/file-format-menu';
import { RefreshButton } from '../../ui/list-controls';
import { ListToolbar } from '../../ui/list-toolbar';
import { EmptyListState, ErrorState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import {
  describeQuery,
  FiltersButton,
  FiltersPanel,
  type OptionLabelOf,
  QueryBuilder,
  tagValueEditor,
  useQueryDraft,
  type ValueEditors,
} from '../../ui/query-builder';
import { tagPathText } from '../../ui/tag-picker';
import { type SavedUrlView, useSavedUrlView } from '../../ui/url-view';
import {
  loadQueryOptions,
  useExportProducts,
  useProductList,
  useQueryFields,
  useReprocessImages,
} from './api';
import { BulkBar } from './BulkBar';
import { ColumnChooser } from './ColumnChooser';
import { ProductTable } from './ProductTable';
import {
  attributeColumnCodes,
  lastStagingSearch,
  parseStagingView,
  type StagingView,
  stagingViewOf,
  stagingViewToSearch,
  toggleSort,
  viewStateOf,
} from './url-state';

export const STAGING_PRODUCTS = '/products/staging-products';
const FILTERS_FOLDED = 'staging-products:filters-folded';

const ReportDrawer = lazy(() =>
  import('./ReportDrawer').then((module) => ({ default: module.ReportDrawer })),
);
const AddProductDrawer = lazy(() => import('./AddProductDrawer'));

/** The tag ids a query's Tag conditions name. */
const tagIdsOf = (tree: QueryTree) => [
  ...new Set(
    conditionsOf(tree)
      .filter((condition) => condition.field === 'tags' && Array.isArray(condition.value))
      .flatMap((condition) => (condition.value as (string | number)[]).map(String)),
  ),
];

/**
 * Staging products (SPEC §2): the server-paged grid under the nested AND/OR query builder, saved views,
 * the report, bulk actions, export, reprocess images and add product. The whole view is in the URL.
 */
const stagingUrlView: SavedUrlView<StagingView> = {
  route: STAGING_PRODUCTS,
  list: 'staging-products',
  parse: parseStagingView,
  toSearch: stagingViewToSearch,
  ofSaved: stagingViewOf,
  remember: lastStagingSearch,
};

export default function StagingProductsPage() {
  // Coming back from the menu (a bare URL): the tab's last view, else the user's default saved view.
  const { view, setView } = useSavedUrlView(stagingUrlView);
  const { can } = useRouteActions(STAGING_PRODUCTS);

  // The query builder is the heart of the page: open until the person folds it away (for the tab).
  const [filtersOpen, setFiltersOpen] = useState(() => sessionStorage.getItem(FILTERS_FOLDED) !== 'true');
  const toggleFilters = () =>
    setFiltersOpen((open) => {
      sessionStorage.setItem(FILTERS_FOLDED, String(open));
      return !open;
    });
  const [columnsWanted, setColumnsWanted] = useState(false);
  const needsFields =
    filtersOpen ||
    columnsWanted ||
    view.query.children.length > 0 ||
    view.columns.some((c) => c.startsWith('attr.'));
  const fields = useQueryFields(needsFields);
  const fieldList = fields.data;
  const fieldMap = useMemo(() => new Map((fieldList ?? []).map((field) => [field.key, field])), [fieldList]);
  const [draft, onQueryChange] = useQueryDraft(view.query, fieldList, (query) =>
    setView({ query, page: 1 }, { replace: true }),
  );

  const body = {
    query: view.query,
    search: view.search,
    sort: view.sort,
    order: view.order,
    skip: (view.page - 1) * view.size,
    limit: view.size,
    attributeColumns: attributeColumnCodes(view.columns),
  };
  const list = useProductList(body);
  const rows = list.data?.result ?? [];

  // Selection: ticked rows, or every product of the query.
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const queryKey = `${encodeQuery(view.query)}|${view.search}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts a new selection
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [queryKey]);
  const selection: ProductSelection = allMatching
    ? { query: view.query, search: view.search }
    : { ids: [...selected] };
  const total = list.data?.count ?? 0;
  const about = list.data && !list.data.countExact ? 'about ' : '';

  const [reportOpen, setReportOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const exportProducts = useExportProducts();
  const reprocess = useReprocessImages();
  // Tags are chosen in the tag tree: the draft for staff and admins, the published tree for sellers.
  const tagSource = useCurrentUser().data?.isSeller ? 'latest' : 'draft';
  const valueEditors = useMemo<ValueEditors>(() => ({ tags: tagValueEditor(tagSource) }), [tagSource]);
  // The folded summary names tags by their paths.
  const queryTags = useTagNodes(tagSource, tagIdsOf(view.query));
  const tagLabelOf = useCallback<OptionLabelOf>(
    (field, value) => {
      if (field.kind !== 'tree') return undefined;
      const node = queryTags.data?.find((one) => one?.id === String(value));
      return node ? tagPathText(node) : undefined;
    },
    [queryTags.data],
  );
  const summary = describeQuery(view.query, fieldList ?? [], tagLabelOf) || 'All products';

  const startExport = (format: ExportFormat) =>
    exportProducts.mutate({
      query: view.query,
      search: view.search,
      sort: view.sort,
      order: view.order,
      columns: view.columns.filter((column) => column !== 'image' && !column.startsWith('attr.')) as never,
      attributeColumns: attributeColumnCodes(view.columns),
      format,
    });

  return (
    <>
      <PageHeader
        title="Staging Products"
        description="Products waiting to be completed, reviewed and put live."
        actions={
          <HStack gap="2" wrap="wrap">
            <RefreshButton onRefresh={() => list.refetch()} refreshing={list.isFetching} />
            <Button variant="outline" onClick={() => setReportOpen(true)} data-tour="report">
              <BarChart3 /> Report
            </Button>
            {can('edit') ? (
              <Button
                variant="outline"
                loading={reprocess.isPending}
                onClick={() => reprocess.mutate({ query: view.query, search: view.search })}
                data-tour="reprocess-images"
                title="Regenerate the thumbnails and web images of every product the query selects"
              >
                <ImageUp /> Reprocess images
              </Button>
            ) : null}
            {can('export') ? (
              <FileFormatMenu
                label="Export"
                data-tour="export"
                loading={exportProducts.isPending}
                onChoose={startExport}
              />
            ) : null}
            {can('create') ? (
              <Button colorPalette="brand" onClick={() => setAdding(true)} data-tour="add-product">
                <Plus /> Add product
              </Button>
            ) : null}
          </HStack>
        }
      />

      <ListToolbar
        search={{
          value: view.search,
          onSearch: (text) => setView({ search: text, page: 1 }, { replace: true }),
          label: 'Search products',
          placeholder: 'Search by title or SKU',
          maxW: '80',
        }}
        views={{
          list: 'staging-products',
          current: viewStateOf(view),
          viewId: view.viewId,
          onLoad: (saved) => setView(stagingViewOf(saved.state, saved.id)),
          onUnload: () => setView({ viewId: null }),
          canPublish: can('publish'),
          neutralLabel: 'All products',
        }}
        viewsTour="saved-queries"
        sizes={PRODUCT_PAGE_SIZES}
        size={view.size}
        onSize={(size) => setView({ size, page: 1 })}
        end={
          <ColumnChooser
            columns={view.columns}
            fields={fieldList}
            onOpen={() => setColumnsWanted(true)}
            onChange={(columns) => setView({ columns })}
          />
        }
      >
        <FiltersButton
          open={filtersOpen}
          count={view.query.children.length}
          onToggle={toggleFilters}
          tour="attribute-filters"
        />
      </ListToolbar>

      <FiltersPanel open={filtersOpen} fields={fields} tour="query-type">
        {(loaded) => (
          <QueryBuilder
            fields={loaded}
            value={draft}
            onChange={onQueryChange}
            loadOptions={(source, text) => loadQueryOptions(source, text)}
            resolveOptionLabels={(source, ids) => loadQueryOptions(source, '', ids)}
            valueEditors={valueEditors}
          />
        )}
      </FiltersPanel>
      {!filtersOpen && view.query.children.length ? (
        <Text fontSize="sm" color="fg.muted" mb="3" data-testid="query-summary">
          {summary}
        </Text>
      ) : null}

      {selected.size > 0 || allMatching ? (
        <Stack gap="0">
          <BulkBar
            selection={selection}
            label={
              allMatching
                ? `All ${about}${plural(total, 'matching product')}`
                : `${formatNumber(selected.size)} selected`
            }
            canEdit={can('edit')}
            canDelete={can('delete')}
            onClear={() => {
              setSelected(new Set());
              setAllMatching(false);
            }}
          />
          {!allMatching && selected.size === rows.length && total > rows.length ? (
            <Button
              size="xs"
              variant="plain"
              alignSelf="start"
              mt="-2"
              mb="2"
              onClick={() => setAllMatching(true)}
            >
              Select all {about}
              {plural(total, 'matching product')}
            </Button>
          ) : null}
        </Stack>
      ) : null}

      <Box>
        {list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : !list.isPending && rows.length === 0 ? (
          <EmptyListState
            title={view.query.children.length || view.search ? 'No product matches' : 'No products yet'}
            description={
              view.query.children.length || view.search
                ? 'Loosen a condition, switch a group from AND to OR, or clear the search.'
                : 'Add a product, or import a catalogue sheet: products wait here until they go live.'
            }
            pastTheEnd={view.page > 1}
            onFirstPage={() => setView({ page: 1 })}
          />
        ) : (
          <Stack
            gap="0"
            opacity={list.isPlaceholderData ? 0.6 : 1}
            transition="opacity 0.15s"
            aria-busy={list.isFetching}
          >
            <ProductTable
              rows={rows}
              loading={list.isPending}
              view={view}
              fields={fieldMap}
              selected={selected}
              onToggle={(id) => {
                setAllMatching(false);
                setSelected((current) => {
                  const next = new Set(current);
                  if (next.has(id)) next.delete(id);
                  else next.add(id);
                  return next;
                });
              }}
              onToggleAll={(checked) => {
                setAllMatching(false);
                setSelected(checked ? new Set(rows.map((row) => row.id)) : new Set());
              }}
              onSort={(field) => setView({ ...toggleSort(view, field), page: 1 })}
            />
            {list.data ? (
              <HStack justify="space-between" wrap="wrap">
                <Text fontSize="sm" color="fg.muted" data-testid="product-total">
                  {about}
                  {plural(total, 'product')}
                </Text>
                <Pager
                  skip={(view.page - 1) * view.size}
                  limit={view.size}
                  count={total}
                  onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
                  label="Product pages"
                />
              </HStack>
            ) : null}
          </Stack>
        )}
      </Box>

      <Suspense fallback={null}>
        {reportOpen ? (
          <ReportDrawer
            open={reportOpen}
            query={view.query}
            search={view.search}
            summary={view.search ? `${summary} · search “${view.search}”` : summary}
            onClose={() => setReportOpen(false)}
          />
        ) : null}
        {adding ? <AddProductDrawer open={adding} onClose={() => setAdding(false)} /> : null}
      </Suspense>
    </>
  );
}
