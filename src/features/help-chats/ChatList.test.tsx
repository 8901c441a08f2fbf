// The chat list's empty states (issue 12): a search that finds nothing says so; an empty inbox says
// "No chats yet"; a failed load says it failed.
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { SELLER_HELP_CHATS } from '../../../contracts/help-chats';
import { system } from '../../ui/theme';
import { ChatList, type ChatListProps } from './ChatList';

function renderList(overrides: Partial<ChatListProps>) {
  const { hook } = memoryLocation({ path: SELLER_HELP_CHATS });
  const props: ChatListProps = {
    chats: [],
    count: 0,
    status: 'ready',
    search: '',
    query: '',
    onSearch: vi.fn(),
    onLoadMore: vi.fn(),
    onRefresh: vi.fn(),
    openChatId: null,
    page: SELLER_HELP_CHATS,
    ...overrides,
  };
  render(
    <ChakraProvider value={system}>
      <Router hook={hook}>
        <ChatList {...props} />
      </Router>
    </ChakraProvider>,
  );
}

afterEach(cleanup);

describe('ChatList when there is nothing to list', () => {
  it('says an empty inbox has no chats yet', () => {
    renderList({});
    expect(screen.getByText('No chats yet')).toBeInTheDocument();
    expect(screen.getByText('Chats appear here when customers write.')).toBeInTheDocument();
    expect(screen.queryByText(/No chats match/)).toBeNull();
  });

  it('says a search found nothing, naming it (as text)', () => {
    renderList({ search: 'xyz', query: 'xyz' });
    expect(screen.getByText('No chats match “xyz”.')).toBeInTheDocument();
    expect(screen.queryByText('No chats yet')).toBeNull();
    cleanup();
    renderList({ search: '<b>blue</b>', query: '<b>blue</b>' });
    expect(screen.getByText('No chats match “<b>blue</b>”.')).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
  });

  it('says a failed load failed, searching or not', () => {
    for (const query of ['', 'xyz']) {
      renderList({ status: 'failed', search: query, query });
      expect(screen.getByText('Chats could not be loaded')).toBeInTheDocument();
      expect(screen.queryByText(/No chats/)).toBeNull();
      cleanup();
    }
  });

  it('shows the loading state, not an empty one, while the first page loads', () => {
    renderList({ status: 'loading', search: 'xyz', query: 'xyz' });
    expect(screen.getByLabelText('Loading chats')).toBeInTheDocument();
    expect(screen.queryByText(/No chats/)).toBeNull();
  });
});
