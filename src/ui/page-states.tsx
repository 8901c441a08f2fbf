import {
  Alert,
  Box,
  Button,
  Center,
  EmptyState,
  Heading,
  Skeleton,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { getErrorMessage } from '../services/http';

/** Page title row: heading, optional description and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  return (
    <Stack
      direction={{ base: 'column', md: 'row' }}
      justify="space-between"
      align={{ md: 'center' }}
      mb="6"
      gap="3"
    >
      <Box>
        {/* The page's one <h1>: section headings below it are <h2> (Chakra's default). */}
        <Heading as="h1" size="xl">
          {title}
        </Heading>
        {description ? (
          <Text color="fg.muted" mt="1">
            {description}
          </Text>
        ) : null}
      </Box>
      {actions}
    </Stack>
  );
}

/** Loading placeholder shaped like the content, so the page does not jump when data arrives. */
export function LoadingState({ rows = 4, label = 'Loading…' }: { rows?: number; label?: string }) {
  return (
    <Stack gap="3" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={index} height="10" />
      ))}
    </Stack>
  );
}

/** A failed load: what went wrong, and a way to try again. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Could not load this page</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
      {onRetry ? (
        <Button size="sm" variant="outline" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Alert.Root>
  );
}

export function EmptyMessage({ title, description }: { title: string; description?: string }) {
  return (
    <EmptyState.Root>
      <EmptyState.Content>
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          {description ? <EmptyState.Description>{description}</EmptyState.Description> : null}
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

/**
 * A paged list with nothing to show: why (no rows, none matching, or a page past the end of the list,
 * as a shared or stale link can ask for), and on a page past the end a way back to the first.
 */
export function EmptyListState({
  title,
  description,
  pastTheEnd,
  onFirstPage,
}: {
  title: string;
  /** Shown unless the page is past the end, which has its own sentence. */
  description: string;
  pastTheEnd: boolean;
  onFirstPage: () => void;
}) {
  return (
    <Stack gap="3" align="center" py="6">
      <EmptyMessage
        title={title}
        description={pastTheEnd ? 'This page is past the end of the list.' : description}
      />
      {pastTheEnd ? (
        <Button size="sm" variant="outline" onClick={onFirstPage}>
          Go to the first page
        </Button>
      ) : null}
    </Stack>
  );
}

/** Full-page message for not found / forbidden. */
export function FullPageMessage({
  title,
  description,
  action,
}: {
  title: string;
  description: string;
  action?: ReactNode;
}) {
  return (
    <Center minH="60vh">
      <VStack gap="3" textAlign="center" maxW="md">
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        <Text color="fg.muted">{description}</Text>
        {action}
      </VStack>
    </Center>
  );
}

type Message = { title: string; description: string };

/**
 * A page about one record (`?customerId=`, `?categoryId=`) until the record is there: a full-page
 * message with the way back when the address names none or the server knows none (404), the loading
 * rows, or the error with a retry; once it has loaded, its data.
 */
export function recordState<T>(
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: T | undefined;
    refetch: () => unknown;
  },
  texts: {
    valid: boolean;
    back: ReactNode;
    noneChosen: Message;
    notFound: Message;
    loading: { rows: number; label: string };
  },
): { data: T; view?: undefined } | { data?: undefined; view: ReactNode } {
  const { valid, back, noneChosen, notFound, loading } = texts;
  if (!valid) return { view: <FullPageMessage {...noneChosen} action={back} /> };
  if (query.isPending) return { view: <LoadingState {...loading} /> };
  if (query.isError) {
    if ((query.error as { status?: number }).status === 404) {
      return { view: <FullPageMessage {...notFound} action={back} /> };
    }
    return { view: <ErrorState message={getErrorMessage(query.error)} onRetry={() => query.refetch()} /> };
  }
  return { data: query.data as T };
}
