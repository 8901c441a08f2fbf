import { Box, Button, HStack, Popover, Portal, Progress, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQueries } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { plural } from '../../../contracts/domain/format';
import { type Task, taskPath, taskSchema } from '../../../contracts/notifications';
import { http } from '../../services/http';
import type { StoredTask } from '../../services/stored-auth';
import { taskStore } from '../../services/tasks';

/** While the list is open, each running task's progress is re-read this often. */
export const TASK_POLL_MS = 2000;

export function tasksRunningText(count: number): string {
  return `${plural(count, 'task')} running`;
}

async function fetchTask(taskId: string, signal?: AbortSignal): Promise<Task> {
  // Silent: a task that is gone (its owner's data was removed) just shows without progress.
  const response = await http.get(taskPath(taskId), { signal, silent: true });
  return taskSchema.parse(response.data);
}

function TaskRow({ task, progress }: { task: StoredTask; progress: Task | undefined }) {
  const percent = progress?.progress ?? 0;
  const label = progress ? `${progress.status} · ${percent}%` : 'Waiting…';
  return (
    <Stack gap="1" data-testid="task-progress">
      <HStack justify="space-between" gap="3">
        <Text fontSize="sm" fontWeight="medium">
          {task.name}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          {label}
        </Text>
      </HStack>
      <Progress.Root size="xs" value={progress ? percent : null} colorPalette="brand" aria-label={task.name}>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {progress?.error ? (
        <Text fontSize="xs" color="fg.error">
          {progress.error}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * "N tasks running" while long actions this user started (exports, imports, …) have not finished; a
 * click lists them with their progress, read from the server while the list is open.
 */
export function TasksIndicator() {
  const tasks = useSyncExternalStore(taskStore.subscribe, () => taskStore.getSnapshot().tasks);
  const [open, setOpen] = useState(false);
  const entries = Object.entries(tasks);
  const progress = useQueries({
    queries: entries.map(([taskId]) => ({
      queryKey: ['tasks', 'detail', taskId],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTask(taskId, signal),
      enabled: open,
      refetchInterval: open ? TASK_POLL_MS : (false as const),
      retry: false,
    })),
  });
  if (entries.length === 0) return null;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(event) => setOpen(event.open)}
      positioning={{ placement: 'bottom-end' }}
    >
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="xs"
          color="fg.muted"
          data-testid="tasks-running"
          display={{ base: 'none', sm: 'inline-flex' }}
        >
          <Spinner size="xs" />
          {tasksRunningText(entries.length)}
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {/* A popover is a dialog: it needs a name of its own. */}
          <Popover.Content w="72" aria-label="Running tasks">
            <Popover.Body>
              <Stack gap="3">
                {entries.map(([taskId, task], index) => (
                  <TaskRow key={taskId} task={task} progress={progress[index]?.data} />
                ))}
              </Stack>
              <Box mt="3">
                <Text fontSize="xs" color="fg.muted">
                  You will be notified when each one finishes.
                </Text>
              </Box>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
