import {
  Box,
  Button,
  Center,
  Field,
  Flex,
  Heading,
  Link,
  Spinner,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useRoute } from 'wouter';
import { generalReplyExtra } from '../../../contracts/chat-message-text';
import type { ChatButton, ChatMessage } from '../../../contracts/help-chats';
import { FormMessage, SubmissionError, TextField } from '../../ui/form-parts';
import { useSubmission } from '../../ui/use-submission';
import { labelOfValue, useWidgetChat } from './use-widget-chat';
import { MAX_MESSAGE_LENGTH, validateStartForm } from './widget-form';
import { type LookFill, lookFill } from './widget-look';

type WidgetChat = ReturnType<typeof useWidgetChat>;

/**
 * /chat/{sellerCode} (public, no sign-in): a storefront customer chats with the seller's sales bot and,
 * on request, a person. Made to live in an iframe (public/widget.js; framing is allowed for this path
 * only, see server/plugins/security-headers.ts). Every message is rendered as text, never as HTML.
 */
export default function ChatWidgetPage({ deps }: { deps?: Parameters<typeof useWidgetChat>[1] }) {
  const [, params] = useRoute('/chat/:sellerCode');
  const sellerCode = params?.sellerCode ?? '';
  const chat = useWidgetChat(sellerCode, deps);
  const { phase, shop } = chat;
  // The shop's look (Settings → Website); the app's palette until it arrives or when it has none.
  const fill = lookFill(shop?.look);
  // On the look's fill, the header's other texts take its readable text colour: grey may not read there.
  const onHeader = (ownColour: string) => (fill ? 'inherit' : ownColour);

  return (
    <Flex direction="column" h="100dvh" bg="bg" color="fg">
      <Flex
        as="header"
        align="center"
        gap="3"
        px="4"
        py="3"
        borderBottomWidth="1px"
        bg="bg.subtle"
        style={fill ?? undefined}
      >
        <Box flex="1" minW="0">
          <Heading as="h1" size="md" truncate>
            {shop ? `Chat with ${shop.sellerName}` : 'Chat'}
          </Heading>
          {phase.kind === 'chat' ? <ChatStatus chat={chat} color={onHeader('fg.muted')} /> : null}
          {/* Outside the shop's office hours (Settings → Communication) the bot still answers; a person later. */}
          {shop && !shop.personAvailable && shop.personNotice && !chat.withPerson ? (
            <Text fontSize="sm" color={onHeader('fg.muted')} data-testid="office-hours-notice">
              {shop.personNotice}
            </Text>
          ) : null}
        </Box>
        {phase.kind === 'chat' ? (
          <Link as="button" fontSize="sm" color={onHeader('brand.fg')} onClick={chat.startOver}>
            Start a new chat
          </Link>
        ) : null}
      </Flex>
      {phase.kind === 'loading' ? (
        <Center flex="1">
          <Spinner aria-label="Loading the chat" />
        </Center>
      ) : phase.kind === 'failed' ? (
        <Stack flex="1" p="4" gap="3">
          <FormMessage status="error">{phase.message}</FormMessage>
          {phase.retry ? (
            <Button alignSelf="start" variant="outline" onClick={phase.retry}>
              Try again
            </Button>
          ) : null}
        </Stack>
      ) : phase.kind === 'start' ? (
        <StartForm chat={chat} notice={phase.notice} fill={fill} />
      ) : (
        <Conversation chat={chat} fill={fill} />
      )}
    </Flex>
  );
}

function ChatStatus({ chat, color }: { chat: WidgetChat; color: string }) {
  const text = chat.withPerson
    ? 'You are talking to a person'
    : chat.waitingForPerson
      ? 'Waiting for a person…'
      : chat.live === 'reconnecting'
        ? 'Reconnecting…'
        : null;
  return text ? (
    <Text fontSize="sm" color={color} role="status">
      {text}
    </Text>
  ) : null;
}

function StartForm({ chat, notice, fill }: { chat: WidgetChat; notice?: string; fill: LookFill | null }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const { state, submit } = useSubmission(chat.start);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateStartForm({ name, email });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    submit(checked.value);
  };

  return (
    <Box flex="1" overflowY="auto" p="4">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="4" maxW="sm" mx="auto">
          <Text color="fg.muted">
            Tell us who you are and ask away: our assistant answers at once, and a person can take over.
          </Text>
          {notice ? <FormMessage status="success">{notice}</FormMessage> : null}
          <SubmissionError state={state} />
          <TextField
            label="Your name"
            name="name"
            type="text"
            autoComplete="name"
            value={name}
            onChange={setName}
            error={errors.name}
            autoFocus
          />
          <TextField
            label="Your e-mail"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={errors.email}
          />
          <Button
            type="submit"
            colorPalette="brand"
            loading={state.status === 'pending'}
            style={fill ?? undefined}
          >
            Start chat
          </Button>
        </Stack>
      </form>
    </Box>
  );
}

function Conversation({ chat, fill }: { chat: WidgetChat; fill: LookFill | null }) {
  const listRef = useRef<HTMLDivElement>(null);
  const count = chat.messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message when one arrives.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);

  return (
    <>
      <Stack ref={listRef} flex="1" overflowY="auto" p="4" gap="3" role="log" aria-label="Messages">
        {chat.messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            messages={chat.messages}
            fill={fill}
            onChoose={(button) => void chat.send(button.value)}
          />
        ))}
      </Stack>
      <Composer chat={chat} fill={fill} />
    </>
  );
}

function MessageBubble({
  message,
  messages,
  fill,
  onChoose,
}: {
  message: ChatMessage;
  messages: readonly ChatMessage[];
  fill: LookFill | null;
  onChoose: (button: ChatButton) => void;
}) {
  const mine = message.sender === 'User';
  // A tapped button's value is shown as its label ("Talk to a person", not "__connect__").
  const text = mine ? (labelOfValue(message.message, messages) ?? message.message) : message.message;
  const author = mine ? 'You' : message.manual ? message.agentName || 'Support' : 'Assistant';
  const extra = generalReplyExtra(message);
  const choices: ChatButton[] = mine
    ? []
    : [
        ...(message.buttons ?? []),
        ...(message.questions ?? []).map((question) => ({ label: question, value: question })),
        ...(message.generalReply?.actions ?? []),
      ];
  return (
    <Stack
      gap="1"
      alignSelf={mine ? 'flex-end' : 'flex-start'}
      align={mine ? 'flex-end' : 'flex-start'}
      maxW="85%"
      data-sender={message.sender}
      data-message-id={message.id}
      data-testid="chat-message"
    >
      <Text fontSize="xs" color="fg.muted">
        {author}
      </Text>
      {/* Text children only: React escapes them, so markup anyone typed shows literally. */}
      <Box
        px="3"
        py="2"
        borderRadius="lg"
        bg={mine ? 'brand.solid' : 'bg.muted'}
        color={mine ? 'brand.contrast' : 'fg'}
        style={mine ? (fill ?? undefined) : undefined}
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {text}
        {extra === null ? '' : `\n${extra}`}
      </Box>
      {choices.length ? (
        <Flex wrap="wrap" gap="2">
          {choices.map((choice) => (
            <Button
              key={`${choice.value}:${choice.label}`}
              size="xs"
              variant="outline"
              colorPalette="brand"
              borderRadius="full"
              onClick={() => onChoose(choice)}
            >
              {choice.label}
            </Button>
          ))}
        </Flex>
      ) : null}
    </Stack>
  );
}

function Composer({ chat, fill }: { chat: WidgetChat; fill: LookFill | null }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const sendNow = async () => {
    if (sending) return;
    const typed = text;
    setSending(true);
    setText('');
    const sent = await chat.send(typed);
    setSending(false);
    // Not sent: give the text back unless the customer already typed something new.
    if (!sent) setText((current) => current || typed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void sendNow();
    }
  };

  return (
    <Box
      as="form"
      borderTopWidth="1px"
      p="3"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void sendNow();
      }}
    >
      <Field.Root invalid={!!chat.sendError}>
        <Field.Label srOnly>Your message</Field.Label>
        <Flex gap="2" w="full" align="flex-end">
          <Textarea
            name="message"
            placeholder="Write a message…"
            rows={2}
            resize="none"
            maxLength={MAX_MESSAGE_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <Button type="submit" colorPalette="brand" loading={sending} style={fill ?? undefined}>
            Send
          </Button>
        </Flex>
        <Flex w="full" justify="space-between" gap="2">
          <Field.ErrorText>{chat.sendError}</Field.ErrorText>
          <Text fontSize="xs" color="fg.muted" ms="auto" aria-live="polite">
            {text.length}/{MAX_MESSAGE_LENGTH}
          </Text>
        </Flex>
      </Field.Root>
    </Box>
  );
}
