import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PURCHASE_ORDERS_ROUTE, SUPPLIERS_API } from '../../../contracts/purchase-orders';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import { SuppliersDialog } from './SuppliersDialog';
import { CLIENT_SETTINGS, renderAt, SUPPLIER_ID, supplier } from './testing';
import { basisPointsOf, percentTextOf } from './tolerance';

let requests: RecordedRequest[];
let uninstall: () => void;
let refusal: string | null = null;

function reply(request: RecordedRequest): FakeReply {
  const method = request.method.toLowerCase();
  if (request.url === '/api/v1/settings/client') return { status: 200, data: CLIENT_SETTINGS };
  if (request.url === SUPPLIERS_API && method === 'get')
    return { status: 200, data: { result: [supplier()], total: 1 } };
  if (request.url === SUPPLIERS_API && method === 'post') {
    if (refusal) return { status: 409, data: { message: refusal } };
    const body = request.body as object;
    return { status: 201, data: { ...supplier(), ...body, id: '0f1e2d3c-4b5a-4697-8877-665544332211' } };
  }
  if (request.url === `${SUPPLIERS_API}/${SUPPLIER_ID}` && method === 'put')
    return { status: 200, data: { ...supplier(), ...(request.body as object) } };
  return { status: 404, data: { message: 'Not found' } };
}

beforeEach(() => {
  refusal = null;
  ({ requests, uninstall } = installFakeHttp(reply));
});
afterEach(() => {
  cleanup();
  uninstall();
});

const writes = () => requests.filter((request) => ['post', 'put'].includes(request.method.toLowerCase()));

async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

describe('the tolerance as the form writes it', () => {
  it('reads a percent with up to 2 decimals as basis points, exactly', () => {
    expect(basisPointsOf('2.5')).toBe(250);
    expect(basisPointsOf('0.29')).toBe(29);
    expect(basisPointsOf('1.15')).toBe(115);
    expect(basisPointsOf('100')).toBe(10_000);
    expect(basisPointsOf('2,5 %')).toBe(250);
    expect(basisPointsOf('2.555')).toBe('A percent has 2 decimals at most.');
    expect(basisPointsOf('101')).toBe('A percent tolerance is at most 100 %.');
    expect(basisPointsOf('abc')).toMatch(/as a number/);
    expect(percentTextOf(250)).toBe('2.5');
    expect(percentTextOf(5)).toBe('0.05');
    expect(percentTextOf(1000)).toBe('10');
  });
});

describe('SuppliersDialog', () => {
  it('adds a supplier with a 2.5 % tolerance as 250 basis points', async () => {
    renderAt(PURCHASE_ORDERS_ROUTE, <SuppliersDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Tea <Traders>')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: /Add supplier/ }));
    const form = await within(dialog).findByRole('form', { name: 'Add a supplier' });
    await userEvent.click(within(form).getByRole('button', { name: 'Add supplier' }));
    expect(await within(form).findByText('Enter the supplier’s name.')).toBeTruthy();
    expect(within(form).getByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(writes()).toHaveLength(0);

    await fill(within(form).getByRole('textbox', { name: /^Name/ }), 'Leaf & Co');
    await fill(within(form).getByRole('textbox', { name: /^E-mail/ }), 'buy@leaf.example');
    await fill(within(form).getByRole('textbox', { name: 'Tax id' }), 'FR1234');
    await waitFor(() =>
      expect((within(form).getByRole('combobox', { name: /Currency/ }) as HTMLSelectElement).value).toBe(
        'EUR',
      ),
    );
    await fill(within(form).getByRole('textbox', { name: /Tolerance \(%\)/ }), '2.5');
    await userEvent.click(within(form).getByRole('button', { name: 'Add supplier' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.url).toBe(SUPPLIERS_API);
    expect(writes()[0]?.body).toEqual({
      name: 'Leaf & Co',
      email: 'buy@leaf.example',
      phone: '',
      address: null,
      taxId: 'FR1234',
      currency: 'EUR',
      tolerance: { kind: 'percent', value: 250 },
      active: true,
    });
    // Back on the list.
    expect(await within(dialog).findByRole('table', { name: 'Suppliers' })).toBeTruthy();
  });

  it('edits a supplier: its tolerance shows back as a percent, units are whole numbers', async () => {
    renderAt(PURCHASE_ORDERS_ROUTE, <SuppliersDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Edit Tea <Traders>' }));
    const form = await within(dialog).findByRole('form', { name: 'Edit Tea <Traders>' });
    const tolerance = within(form).getByRole('textbox', { name: /Tolerance \(%\)/ }) as HTMLInputElement;
    expect(tolerance.value).toBe('2.5');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Tolerance in' }), 'units');
    const units = within(form).getByRole('textbox', { name: /Tolerance \(units\)/ });
    await fill(units, '1.5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save supplier' }));
    expect(await within(form).findByText('A tolerance in units is a whole number.')).toBeTruthy();
    await fill(units, '3');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Active/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save supplier' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.url).toBe(`${SUPPLIERS_API}/${SUPPLIER_ID}`);
    expect(writes()[0]?.body).toMatchObject({
      name: 'Tea <Traders>',
      currency: 'USD',
      tolerance: { kind: 'units', value: 3 },
      active: false,
    });
  });

  it('shows the server’s refusal in the form', async () => {
    refusal = 'There is a supplier named “Leaf & Co” already.';
    renderAt(PURCHASE_ORDERS_ROUTE, <SuppliersDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: /Add supplier/ }));
    const form = await within(dialog).findByRole('form', { name: 'Add a supplier' });
    await fill(within(form).getByRole('textbox', { name: /^Name/ }), 'Leaf & Co');
    await fill(within(form).getByRole('textbox', { name: /^E-mail/ }), 'buy@leaf.example');
    await waitFor(() =>
      expect((within(form).getByRole('combobox', { name: /Currency/ }) as HTMLSelectElement).value).toBe(
        'EUR',
      ),
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Add supplier' }));
    expect(await within(form).findByText(refusal)).toBeTruthy();
  });
});
