// The open chat: its messages as text (never HTML), the bot's buttons and questions as chips, who holds
// the chat, and the composer a person answers with (Enter sends; Shift+Enter is a new line).
import { Badge, Box, Button, Flex, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { generalReplyExtra } from '../../../contracts/chat-message-text';
import { type ChatMessage, type ChatUserEntry, MAX_CHAT_MESSAGE_LENGTH } from '../../../contracts/help-chats';
import { EmptyMessage, LoadingState } from '../../ui/page-states';
import { VideoCallButton } from '../../ui/video-call/VideoCallButton';

export interface ChatConversationProps {
  chat: ChatUserEntry | null;
  chatId: string;
  /** null while the history loads, or when it failed. */
  messages: ChatMessage[] | null;
  email: string | null;
  historyFailed: boolean;
  sending: boolean;
  handingBack: boolean;
  onSend: (message: string) => Promise<unknown>;
  onHandBack: () => void;
}

function Chips({ labels }: { labels: string[] }) {
  if (labels.length === 0) return null;
  return (
    <Flex gap="1" wrap="wrap" mt="2">
      {labels.map((label, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat; their order is stable
        <Badge key={`${index}-${label}`} variant="outline" rounded="full" data-testid="chat-chip">
          {label}
        </Badge>
      ))}
    </Flex>
  );
}

function MessageBubble({ message }: { message: ChatMessage }) {
  const fromCustomer = message.sender === 'User';
  const chips = [
    ...(message.buttons ?? []).map((button) => button.label),
    ...(message.questions ?? []),
    ...(message.generalReply?.actions ?? []).map((action) => action.label),
  ];
  const author = fromCustomer ? 'Customer' : message.manual ? (message.agentName ?? 'Agent') : 'Bot';
  const extra = generalReplyExtra(message);
  return (
    <Flex
      justify={fromCustomer ? 'flex-start' : 'flex-end'}
      data-sender={message.sender}
      data-testid="chat-message"
    >
      <Box
        maxW="80%"
        px="3"
        py="2"
        rounded="lg"
        bg={fromCustomer ? 'bg.muted' : message.manual ? 'brand.subtle' : 'bg.emphasized'}
      >
        <Text fontSize="xs" color="fg.muted">
          {author}
        </Text>
        <Text whiteSpace="pre-wrap" wordBreak="break-word" data-testid="chat-message-text">
          {message.message}
        </Text>
        {extra === null ? null : <Text whiteSpace="pre-wrap">{extra}</Text>}
        <Chips labels={chips} />
      </Box>
    </Flex>
  );
}

export function ChatConversation(props: ChatConversationProps) {
  const { chat, messages } = props;
  const [draft, setDraft] = useState('');
  const text = draft.trim();

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text || props.sending) return;
    try {
      await props.onSend(text);
      setDraft('');
    } catch {
      // The HTTP client toasted it; the draft stays for another try.
    }
  };

  return (
    <Stack gap="3" h="full" aria-label="Conversation">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Box>
          <Text fontWeight="semibold">{chat?.username ?? 'Chat'}</Text>
          {props.email ? (
            <Text fontSize="sm" color="fg.muted">
              {props.email}
            </Text>
          ) : null}
        </Box>
        {chat?.heldBy ? (
          <Flex gap="2" align="center">
            <Badge colorPalette="purple">Held by {chat.heldBy.name}</Badge>
            <VideoCallButton compact peer={{ id: chat.heldBy.id, name: chat.heldBy.name, avatarUrl: null }} />
            <Button size="sm" variant="outline" onClick={props.onHandBack} loading={props.handingBack}>
              Hand back to the bot
            </Button>
          </Flex>
        ) : null}
      </Flex>
      <Stack gap="2" flex="1" overflowY="auto" aria-live="polite" aria-label="Messages">
        {messages === null ? (
          props.historyFailed ? (
            <EmptyMessage title="The chat history could not be loaded" />
          ) : (
            <LoadingState label="Loading the chat" />
          )
        ) : messages.length === 0 ? (
          <EmptyMessage title="No messages yet" />
        ) : (
          messages.map((message) => <MessageBubble key={message.id} message={message} />)
        )}
      </Stack>
      <form onSubmit={send}>
        <Flex gap="2" align="flex-end">
          <Textarea
            aria-label="Your answer"
            placeholder="Write an answer (Enter sends)"
            value={draft}
            maxLength={MAX_CHAT_MESSAGE_LENGTH}
            rows={2}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void send();
              }
            }}
          />
          <Button type="submit" colorPalette="brand" disabled={!text} loading={props.sending}>
            Send
          </Button>
        </Flex>
      </form>
    </Stack>
  );
}
