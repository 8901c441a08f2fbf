import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordState } from './page-states';
import { system } from './theme';

afterEach(cleanup);

const texts = {
  valid: true,
  back: <a href="/things">All things</a>,
  noneChosen: { title: 'No thing chosen', description: 'Pick one.' },
  notFound: { title: 'Thing not found', description: 'It may be gone.' },
  loading: { rows: 3, label: 'Loading thing' },
};
const query = { isPending: false, isError: false, error: null, data: undefined, refetch: vi.fn() };
const show = (state: ReturnType<typeof recordState>) =>
  render(<ChakraProvider value={system}>{state.view}</ChakraProvider>);

describe('recordState', () => {
  it('says no record is chosen before it waits for one', () => {
    show(recordState({ ...query, isPending: true }, { ...texts, valid: false }));
    expect(screen.getByRole('heading', { name: 'No thing chosen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All things' })).toBeInTheDocument();
  });

  it('tells a 404 from another failure, which it offers to retry', () => {
    show(recordState({ ...query, isError: true, error: { status: 404 } }, texts));
    expect(screen.getByRole('heading', { name: 'Thing not found' })).toBeInTheDocument();
    cleanup();
    const refetch = vi.fn();
    show(recordState({ ...query, isError: true, error: new Error('Boom'), refetch }, texts));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('hands over the data once it has loaded', () => {
    expect(recordState({ ...query, data: { id: 1 } }, texts)).toEqual({ data: { id: 1 } });
    expect(recordState({ ...query, isPending: true }, texts).data).toBeUndefined();
  });
});
