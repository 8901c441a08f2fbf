import { HStack, Spinner, Text } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { taskStore } from '../../services/tasks';

export function tasksRunningText(count: number): string {
  return count === 1 ? '1 task running' : `${count} tasks running`;
}

/** "N tasks running" while long actions this user started (exports, imports, …) have not finished. */
export function TasksIndicator() {
  const tasks = useSyncExternalStore(taskStore.subscribe, () => taskStore.getSnapshot().tasks);
  const names = Object.values(tasks).map((task) => task.name);
  if (names.length === 0) return null;
  return (
    <HStack
      gap="1.5"
      px="2"
      color="fg.muted"
      fontSize="xs"
      title={names.join(', ')}
      role="status"
      data-testid="tasks-running"
      display={{ base: 'none', sm: 'flex' }}
    >
      <Spinner size="xs" />
      <Text whiteSpace="nowrap">{tasksRunningText(names.length)}</Text>
    </HStack>
  );
}
