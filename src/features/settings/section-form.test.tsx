// The settings section form in jsdom against a fake API: a seller's field shows Inherited, an edit is
// saved with the version read, the answer shows Overridden beside the marketplace's value, Reset to
// inherited sends a reset, and a refusal shows its message at the field.
import { ChakraProvider, Input } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SectionState } from '../../../contracts/settings';
import type { Responder } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import { SectionFrame } from './SectionFrame';
import { SettingField } from './section-form';
import { fakeApiForEachTest } from './sections/section-testing';

const SELLER = '11111111-1111-4111-8111-111111111111';

function shipping(divisor: number, overridden: boolean, version: number): SectionState {
  return {
    section: 'shipping',
    scope: { type: 'seller', sellerId: SELLER },
    version,
    updatedAt: null,
    updatedBy: null,
    fields: {
      divisor: {
        value: divisor,
        source: overridden ? 'overridden' : 'marketplace',
        inherited: 5000,
        editable: true,
      },
    },
  };
}

let state: SectionState;
let reply: Responder;
const api = fakeApiForEachTest((request) => reply(request));

beforeEach(() => {
  state = shipping(5000, false, 0);
  reply = (request) => {
    if (request.method === 'GET' && request.url === '/api/v1/settings/shipping')
      return { status: 200, data: state };
    if (request.method === 'PUT' && request.url === '/api/v1/settings/shipping') {
      const body = request.body as { version: number; set: { divisor?: number }; reset: string[] };
      if (body.set.divisor === 42) {
        return {
          status: 400,
          data: {
            message: 'divisor: A divisor is at least 1000.',
            code: 'INVALID_SETTINGS',
            fields: { divisor: 'A divisor is at least 1000.' },
          },
        };
      }
      state = body.reset.includes('divisor')
        ? shipping(5000, false, body.version + 1)
        : shipping(body.set.divisor ?? 5000, true, body.version + 1);
      return { status: 200, data: state };
    }
    return { status: 404, data: { message: 'not here' } };
  };
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <SectionFrame section="shipping" description="Rates by weight.">
          {() => (
            <SettingField field="divisor" label="Volumetric divisor">
              {(control) => (
                <Input
                  id={control.id}
                  value={String(control.value)}
                  disabled={control.disabled}
                  onChange={(event) => control.onChange(Number(event.target.value))}
                />
              )}
            </SettingField>
          )}
        </SectionFrame>
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

describe("a seller's settings section", () => {
  it('saves an override with the version read, shows it overridden, and resets it to inherited', async () => {
    const user = userEvent.setup();
    renderSection();
    await screen.findByText('Volumetric divisor');
    const input = await screen.findByLabelText(/Volumetric divisor/);
    expect(screen.getByText('Inherited')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reset to inherited/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await user.clear(input);
    await user.type(input, '6000');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByText('Overridden')).toBeInTheDocument());
    const save = api.requests.find((request) => request.method === 'PUT');
    expect(save?.body).toEqual({ version: 0, set: { divisor: 6000 }, reset: [] });
    expect(screen.getByText('Marketplace: 5000')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset to inherited: Volumetric divisor' }));
    await waitFor(() => expect(screen.getByText('Inherited')).toBeInTheDocument());
    expect(api.requests.filter((request) => request.method === 'PUT').at(-1)?.body).toEqual({
      version: 1,
      set: {},
      reset: ['divisor'],
    });
    expect(screen.getByLabelText(/Volumetric divisor/)).toHaveValue('5000');
  });

  it("shows the server's refusal at the field and keeps the draft", async () => {
    const user = userEvent.setup();
    renderSection();
    const input = await screen.findByLabelText(/Volumetric divisor/);
    await user.clear(input);
    await user.type(input, '42');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('A divisor is at least 1000.')).toBeInTheDocument();
    expect(input).toHaveValue('42');
    expect(state.version).toBe(0);
  });
});
