import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { EnquiryBody } from '../../../contracts/enquiry';
import { findPublicPage, publicPagesByPrefix } from '../../app/public-pages';
import { ApiError } from '../../services/api-error';
import { publicSystem } from '../../ui/theme-public';
import EnquiryPage from './EnquiryPage';
import type { EnquiryApi } from './enquiry-api';

const PRODUCTS = [
  { id: '00000000-0000-4000-8000-000000000001', title: 'Oak table', sku: 'OAK-1' },
  { id: '00000000-0000-4000-8000-000000000002', title: 'Pine chair', sku: 'PINE-2' },
];

function fakeApi(send?: EnquiryApi['send']) {
  return {
    form: vi.fn(async () => ({
      sellerName: 'Shop One',
      intro: 'We answer within a day. <b>not markup</b>',
      languages: ['EN'],
      formToken: 'token-1',
    })),
    products: vi.fn(async (_code: string, search: string) => ({
      items: PRODUCTS.filter((item) => item.title.toLowerCase().includes(search.toLowerCase())),
      hasMore: false,
    })),
    send:
      send ??
      vi.fn(async (_code: string, body: EnquiryBody) => ({
        mode: body.mode ?? 'question',
        reference: 'Q-1042',
        message: 'Thank you! Shop One has your question (Q-1042) and will answer you by e-mail.',
      })),
  } satisfies EnquiryApi;
}

function renderPage(api: EnquiryApi) {
  const { hook, searchHook } = memoryLocation({ path: '/enquiry/SHOP-1' });
  return render(
    <ChakraProvider value={publicSystem}>
      <Router hook={hook} searchHook={searchHook}>
        <EnquiryPage api={api} minFillMs={0} />
      </Router>
    </ChakraProvider>,
  );
}

afterEach(cleanup);

describe('EnquiryPage', () => {
  it('is the public page for /enquiry/{sellerCode}', () => {
    expect(findPublicPage('/enquiry/SHOP-1')).toBe(publicPagesByPrefix['/enquiry/']);
  });

  it('shows the shop, its introduction as text, one h1, and sends a question with its product', async () => {
    const api = fakeApi();
    renderPage(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ask Shop One' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('We answer within a day. <b>not markup</b>')).toBeInTheDocument();
    // The honeypot is out of the accessibility tree and the tab order.
    const honeypot = document.getElementById('enquiry-website') as HTMLInputElement;
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.autocomplete).toBe('off');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Website' })).toBeNull();

    await userEvent.type(screen.getByLabelText(/your name/i), 'Ada');
    await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ada@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /^subject/i }), 'Delivery');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search products' }), 'oak');
    await waitFor(() => expect(api.products).toHaveBeenLastCalledWith('SHOP-1', 'oak'));
    const select = screen.getByRole('combobox', { name: 'Product (optional)' });
    await waitFor(() =>
      expect(within(select).getByRole('option', { name: 'Oak table (OAK-1)' })).toBeInTheDocument(),
    );
    await userEvent.selectOptions(select, PRODUCTS[0]!.id);
    await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'When can you deliver?');
    await userEvent.click(screen.getByRole('button', { name: 'Send question' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Q-1042');
    expect(api.send).toHaveBeenCalledWith(
      'SHOP-1',
      expect.objectContaining({
        formToken: 'token-1',
        website: '',
        mode: 'question',
        name: 'Ada',
        email: 'ada@example.com',
        subject: 'Delivery',
        productId: PRODUCTS[0]!.id,
        lines: [],
      }),
    );
  });

  it('asks for an offer with products and quantities, and names missing fields first', async () => {
    const api = fakeApi();
    renderPage(api);
    await screen.findByRole('heading', { level: 1 });
    await userEvent.click(screen.getByRole('radio', { name: 'Ask for an offer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Ask for an offer' }));
    expect(await screen.findByText('Choose at least one product')).toBeInTheDocument();
    expect(screen.getByText('Enter your name')).toBeInTheDocument();
    expect(api.send).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText(/your name/i), 'Ada');
    await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ada@example.com');
    const select = screen.getByRole('combobox', { name: 'Product to add' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(select, PRODUCTS[1]!.id);
    await userEvent.click(screen.getByRole('button', { name: 'Add to the request' }));
    const quantity = screen.getByRole('spinbutton', { name: 'Quantity of Pine chair' });
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '12');
    await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'Best price for 12?');
    await userEvent.type(screen.getByRole('textbox', { name: /shipping country/i }), 'de');
    await userEvent.click(screen.getByRole('button', { name: 'Ask for an offer' }));
    await screen.findByRole('status');
    expect(api.send).toHaveBeenCalledWith(
      'SHOP-1',
      expect.objectContaining({
        mode: 'offer',
        lines: [{ productId: PRODUCTS[1]!.id, quantity: 12 }],
        shippingCountry: 'DE',
        productId: null,
      }),
    );
  });

  it("shows the server's refusal and fetches a fresh token when the form was refused", async () => {
    const send = vi.fn(async () => {
      throw new ApiError({
        message: 'We could not accept this enquiry. Please reload the page and try again.',
        status: 400,
        code: 'ENQUIRY_REFUSED',
      });
    });
    const api = fakeApi(send);
    renderPage(api);
    await screen.findByRole('heading', { level: 1 });
    await userEvent.type(screen.getByLabelText(/your name/i), 'Ada');
    await userEvent.type(screen.getByLabelText(/your e-mail/i), 'ada@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /^subject/i }), 'Hello');
    await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'Hi');
    await userEvent.click(screen.getByRole('button', { name: 'Send question' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not accept this enquiry');
    await waitFor(() => expect(api.form).toHaveBeenCalledTimes(2));
  });

  it('says when the shop takes no enquiries', async () => {
    const api = fakeApi();
    api.form.mockRejectedValueOnce(
      new ApiError({ message: 'This shop does not take enquiries.', status: 404, code: 'ENQUIRIES_CLOSED' }),
    );
    renderPage(api);
    expect(await screen.findByRole('alert')).toHaveTextContent('This shop does not take enquiries.');
  });
});
