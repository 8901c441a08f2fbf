import { Button, Tabs } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { ATTRIBUTES_ROUTE } from '../../../contracts/attribute-admin';
import { useRouteActions } from '../../services/route-permissions';
import { PageHeader } from '../../ui/page-states';
import { AttributeEditorDialog } from './AttributeEditorDialog';
import { AttributeList } from './AttributeList';
import { CategorySetsPanel } from './CategorySetsPanel';

/**
 * The catalogue's attributes (what products are described by) and each category's attribute set (which
 * of them its products are asked for). Users without create, edit or delete see both read-only.
 */
export default function AttributesPage() {
  const { can } = useRouteActions(ATTRIBUTES_ROUTE);
  const [tab, setTab] = useState('attributes');
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader
        title="Attributes"
        description="The typed fields products are described by, and which of them each category asks for."
        actions={
          can('create') && tab === 'attributes' ? (
            <Button colorPalette="brand" onClick={() => setCreating(true)} data-tour="new-attribute">
              <Plus /> New attribute
            </Button>
          ) : null
        }
      />
      <Tabs.Root
        value={tab}
        onValueChange={(event) => setTab(event.value)}
        colorPalette="brand"
        variant="line"
        lazyMount
      >
        <Tabs.List mb="4" data-tour="attribute-tabs">
          <Tabs.Trigger value="attributes">Attributes</Tabs.Trigger>
          <Tabs.Trigger value="category-sets">Category sets</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="attributes">
          <AttributeList can={{ edit: can('edit'), delete: can('delete') }} />
        </Tabs.Content>
        <Tabs.Content value="category-sets">
          <CategorySetsPanel canEdit={can('edit')} />
        </Tabs.Content>
      </Tabs.Root>
      {creating ? <AttributeEditorDialog attribute={null} open onClose={() => setCreating(false)} /> : null}
    </>
  );
}
