import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AttributeDetail,
  AttributeSummary,
  CategoryAttributeSet,
} from '../../../contracts/attribute-admin';
import type { SidebarData } from '../../../contracts/permissions';
import type { RouteAction } from '../../../contracts/routes';
import { configureHttp, http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { toaster } from '../../ui/toaster';
import { AttributeEditorDialog } from './AttributeEditorDialog';
import AttributesPage from './AttributesPage';

const summary = (overrides: Partial<AttributeSummary>): AttributeSummary => ({
  id: 1,
  code: 'colour',
  label: 'Colour',
  dataType: 'ENUMERATED',
  attributeType: 'SINGLE',
  isRequired: false,
  unit: null,
  groupName: 'Attributes',
  optionCount: 2,
  categoryCount: 1,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const detailOf = (attribute: AttributeSummary): AttributeDetail => ({
  ...attribute,
  options: [],
  categories: [],
  productCount: 0,
  savedViewCount: 0,
});

let requests: RecordedRequest[];
let respond: (request: RecordedRequest) => FakeReply | undefined;
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  respond = () => undefined;
  const fake = createFakeAdapter((request) => {
    const reply = respond(request);
    if (reply) return reply;
    if (request.url === '/api/v1/attributes/groups') return { status: 200, data: { result: ['Attributes'] } };
    return { status: 404, data: { message: 'No such API route.', code: 'NOT_FOUND' } };
  });
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
  toaster.remove();
});

function renderWith(ui: ReactNode, actions: RouteAction[] = ['view', 'create', 'edit', 'delete']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const sidebar: SidebarData = {
    menu: [],
    permissions: { '/products/attributes': actions },
    usingDefaultPermissions: false,
  };
  client.setQueryData(sessionKeys.sidebar(), sidebar);
  return render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </ChakraProvider>,
  );
}

const writes = () => requests.filter((request) => request.method !== 'GET');

describe('<AttributeEditorDialog /> creating an attribute', () => {
  it('sends an ENUMERATED attribute with its two options, in order', async () => {
    const user = userEvent.setup();
    respond = (request) =>
      request.method === 'POST'
        ? { status: 201, data: detailOf(summary({ id: 7, code: 'fabric', label: 'Fabric' })) }
        : undefined;
    renderWith(<AttributeEditorDialog attribute={null} open onClose={() => {}} />);
    const form = await screen.findByRole('dialog', { name: 'New attribute' });

    await user.type(within(form).getByRole('textbox', { name: /Label/ }), 'Fabric');
    await user.type(within(form).getByRole('textbox', { name: /Code/ }), 'fabric');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Data type' }), 'ENUMERATED');
    // A unit is offered for numbers only.
    expect(within(form).queryByRole('textbox', { name: 'Unit' })).toBeNull();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Values per product' }), 'MULTI');
    await user.click(within(form).getByText(/Required: a product is complete/));
    const newOption = within(form).getByRole('textbox', { name: 'New option' });
    await user.type(newOption, 'Cotton{Enter}');
    await user.type(newOption, 'Linen');
    await user.click(within(form).getByRole('button', { name: /Add option/ }));
    expect(within(form).getByRole('textbox', { name: 'Option 2' })).toHaveValue('Linen');
    // Enter in the option box added an option; it did not submit the form.
    expect(writes()).toHaveLength(0);

    await user.click(within(form).getByRole('button', { name: 'Create attribute' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'POST', url: '/api/v1/attributes/' });
    expect(writes()[0]?.body).toEqual({
      code: 'fabric',
      label: 'Fabric',
      dataType: 'ENUMERATED',
      attributeType: 'MULTI',
      isRequired: true,
      unit: null,
      groupName: 'Attributes',
      options: ['Cotton', 'Linen'],
    });
  });

  it("shows the server's 409 on the field it names", async () => {
    const user = userEvent.setup();
    const message = 'Another attribute already has the code “fabric”.';
    respond = (request) =>
      request.method === 'POST'
        ? { status: 409, data: { message, code: 'CODE_TAKEN', fields: { code: message } } }
        : undefined;
    renderWith(<AttributeEditorDialog attribute={null} open onClose={() => {}} />);
    const form = await screen.findByRole('dialog', { name: 'New attribute' });
    await user.type(within(form).getByRole('textbox', { name: /Label/ }), 'Fabric');
    const code = within(form).getByRole('textbox', { name: /Code/ });
    await user.type(code, 'fabric');
    await user.click(within(form).getByRole('button', { name: 'Create attribute' }));

    expect(await within(form).findByText(message)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    // Said once, beside the field, not again above the form.
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).getByRole('textbox', { name: /Label/ })).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('catches a repeated option before asking the server, on that option', async () => {
    const user = userEvent.setup();
    renderWith(<AttributeEditorDialog attribute={null} open onClose={() => {}} />);
    const form = await screen.findByRole('dialog', { name: 'New attribute' });
    await user.type(within(form).getByRole('textbox', { name: /Label/ }), 'Size');
    await user.type(within(form).getByRole('textbox', { name: /Code/ }), 'size');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Data type' }), 'ENUMERATED');
    const newOption = within(form).getByRole('textbox', { name: 'New option' });
    await user.type(newOption, 'Small{Enter}');
    await user.type(newOption, 'small{Enter}');
    await user.click(within(form).getByRole('button', { name: 'Create attribute' }));
    expect(await within(form).findByText('“small” is already an option.')).toBeInTheDocument();
    expect(writes()).toHaveLength(0);
  });
});

describe('<AttributeEditorDialog /> editing an attribute products use', () => {
  it('keeps the code and data type fixed, protects chosen options and sends the options by id', async () => {
    const user = userEvent.setup();
    const attribute: AttributeDetail = {
      ...detailOf(summary({ id: 9, code: 'colour', label: 'Colour', optionCount: 2 })),
      options: [
        { valueId: 11, value: 'Red', productCount: 3 },
        { valueId: 12, value: 'Blue', productCount: 0 },
      ],
      productCount: 3,
    };
    respond = (request) => (request.method === 'PATCH' ? { status: 200, data: attribute } : undefined);
    renderWith(<AttributeEditorDialog attribute={attribute} open onClose={() => {}} />);
    const form = await screen.findByRole('dialog', { name: 'Edit Colour' });
    expect(within(form).getByRole('textbox', { name: /Code/ })).toBeDisabled();
    expect(within(form).getByRole('combobox', { name: 'Data type' })).toBeDisabled();
    expect(within(form).getAllByText('Fixed: 3 products hold values.').length).toBeGreaterThan(0);
    expect(within(form).getByRole('button', { name: 'Remove Red' })).toBeDisabled();

    await user.click(within(form).getByRole('button', { name: 'Remove Blue' }));
    const red = within(form).getByRole('textbox', { name: 'Option 1' });
    await user.clear(red);
    await user.type(red, 'Crimson');
    await user.type(within(form).getByRole('textbox', { name: 'New option' }), 'Green{Enter}');
    await user.click(within(form).getByRole('button', { name: 'Move Green up' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/attributes/9' });
    expect(writes()[0]?.body).toEqual({
      label: 'Colour',
      attributeType: 'SINGLE',
      isRequired: false,
      unit: null,
      groupName: 'Attributes',
      options: [{ value: 'Green' }, { valueId: 11, value: 'Crimson' }],
    });
  });
});

describe('<AttributesPage />', () => {
  const rows = [
    summary({}),
    summary({ id: 2, code: 'power', label: 'Power', dataType: 'NUMBER', unit: 'W', optionCount: 0 }),
  ];

  it('lists attributes read-only for a user who may only view them', async () => {
    respond = (request) =>
      request.url === '/api/v1/attributes/' ? { status: 200, data: { result: rows, count: 2 } } : undefined;
    renderWith(<AttributesPage />, ['view']);
    const table = await screen.findByRole('table', { name: 'Attributes' });
    expect(within(table).getByText('Power')).toBeInTheDocument();
    expect(within(table).getByText('W')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'View Colour' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Edit|^Delete/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /New attribute/ })).toBeNull();
  });

  it('opens the editor once the attribute has loaded, and deletes after asking', async () => {
    const user = userEvent.setup();
    let deleted = false;
    respond = (request) => {
      if (request.url === '/api/v1/attributes/')
        return { status: 200, data: { result: deleted ? rows.slice(0, 1) : rows, count: deleted ? 1 : 2 } };
      if (request.url === '/api/v1/attributes/1' && request.method === 'GET')
        return { status: 200, data: { ...detailOf(rows[0] as AttributeSummary), productCount: 2 } };
      if (request.url === '/api/v1/attributes/2' && request.method === 'DELETE') {
        deleted = true;
        return { status: 204 };
      }
      return undefined;
    };
    renderWith(<AttributesPage />);
    const table = await screen.findByRole('table', { name: 'Attributes' });
    await user.click(within(table).getByRole('button', { name: 'Edit Colour' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Colour' });
    expect(within(editor).getByRole('textbox', { name: /Code/ })).toBeDisabled();
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Colour' })).toBeNull());

    await user.click(within(table).getByRole('button', { name: 'Delete Power' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Power?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes()).toMatchObject([{ method: 'DELETE', url: '/api/v1/attributes/2' }]));
    await waitFor(() => expect(within(table).queryByText('Power')).toBeNull());
  });

  it('searches and filters on the server, and says when nothing matches', async () => {
    const user = userEvent.setup();
    respond = (request) => {
      if (request.url !== '/api/v1/attributes/') return undefined;
      const filtered = request.params.query || request.params.dataType;
      return { status: 200, data: filtered ? { result: [], count: 0 } : { result: rows, count: 2 } };
    };
    renderWith(<AttributesPage />);
    await screen.findByRole('table', { name: 'Attributes' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Data type' }), 'BOOLEAN');
    expect(await screen.findByText('No attributes match')).toBeInTheDocument();
    expect(requests.at(-1)?.params).toMatchObject({ dataType: 'BOOLEAN', skip: 0, limit: 25 });
    await user.type(screen.getByRole('searchbox', { name: 'Search attributes' }), 'pow');
    await waitFor(() => expect(requests.at(-1)?.params).toMatchObject({ query: 'pow', dataType: 'BOOLEAN' }));
  });

  it('shows a failed load with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    respond = (request) =>
      request.url === '/api/v1/attributes/'
        ? fail
          ? { status: 500, data: { message: 'Internal server error', code: 'INTERNAL' } }
          : { status: 200, data: { result: rows, count: 2 } }
        : undefined;
    renderWith(<AttributesPage />);
    expect(await screen.findByText('Internal server error')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Attributes' })).toBeInTheDocument();
  });

  it("edits a subcategory's own set in order, with the inherited set greyed and untouchable", async () => {
    const user = userEvent.setup();
    const inherited = summary({ id: 1, code: 'colour', label: 'Colour', isRequired: true });
    const own = [
      summary({ id: 3, code: 'sim', label: 'SIM', dataType: 'STRING' }),
      summary({ id: 4, code: 'screen', label: 'Screen', dataType: 'FLOAT' }),
    ];
    const set: CategoryAttributeSet = {
      category: { id: 'sub-1', name: 'Smart', parentId: 'top-1', parentName: 'Phones' },
      attributes: own,
      inherited: [inherited],
    };
    respond = (request) => {
      if (request.url === '/api/v1/attributes/categories') {
        const result = request.params.parentId
          ? [
              {
                id: 'sub-1',
                name: 'Smart',
                parentId: 'top-1',
                isActive: true,
                attributeCount: 2,
                subcategoryCount: 0,
              },
            ]
          : [
              {
                id: 'top-1',
                name: 'Phones',
                parentId: null,
                isActive: true,
                attributeCount: 1,
                subcategoryCount: 1,
              },
            ];
        return { status: 200, data: { result, count: 1 } };
      }
      if (request.url === '/api/v1/attributes/categories/sub-1') {
        return request.method === 'PUT'
          ? { status: 200, data: { ...set, attributes: [own[1], own[0]] } }
          : { status: 200, data: set };
      }
      if (request.url === '/api/v1/attributes/') return { status: 200, data: { result: [], count: 0 } };
      return undefined;
    };
    renderWith(<AttributesPage />);
    await user.click(screen.getByRole('tab', { name: 'Category sets' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Category' }), 'top-1');
    const subcategory = screen.getByRole('combobox', { name: 'Subcategory' });
    await waitFor(() =>
      expect(within(subcategory).getByRole('option', { name: /Smart/ })).toBeInTheDocument(),
    );
    await user.selectOptions(subcategory, 'sub-1');

    const table = await screen.findByRole('table', { name: 'Attributes of Smart' });
    const inheritedRow = within(table).getByText('Colour').closest('tr') as HTMLElement;
    expect(inheritedRow).toHaveAttribute('aria-disabled', 'true');
    expect(within(inheritedRow).getByText('Inherited from Phones')).toBeInTheDocument();
    expect(within(inheritedRow).queryByRole('button')).toBeNull();

    const save = screen.getByRole('button', { name: 'Save set' });
    expect(save).toBeDisabled();
    await user.click(within(table).getByRole('button', { name: 'Move Screen up' }));
    await user.click(save);
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'PUT',
      url: '/api/v1/attributes/categories/sub-1',
      body: { attributeIds: [4, 3] },
    });
  });
});
