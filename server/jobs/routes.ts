import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listTasksQuerySchema,
  type Task,
  type TaskStatus,
  taskListSchema,
  taskSchema,
  taskStatuses,
} from '../../contracts/notifications';
import { errorResponses } from '../lib/error-responses';
import { HttpError } from '../lib/http-error';
import { findOwnJob, type JobRow, listOwnJobs } from './queue';

const statusOf = (status: string): TaskStatus =>
  (taskStatuses as readonly string[]).includes(status) ? (status as TaskStatus) : 'Queued';

export function toTask(job: JobRow): Task {
  return {
    taskId: job.id,
    taskName: job.name,
    status: statusOf(job.status),
    progress: job.progress,
    attempts: job.attempts,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.lastError,
  };
}

export const taskNotFound = () => new HttpError(404, 'Task not found', 'TASK_NOT_FOUND');

// A task belongs to the user who started it: anyone else gets 404, as if it did not exist. Every
// signed-in user may follow their own tasks, so no page permission is named.
const ownTasks = { allowBlockedSeller: true } as const;
const errors = errorResponses(400, 401, 404);

/** `/api/v1/tasks`: the caller's background tasks and their progress. */
export async function taskRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/',
    {
      config: ownTasks,
      schema: {
        tags: ['tasks'],
        summary: "The caller's recent tasks, newest first",
        querystring: listTasksQuerySchema,
        response: { 200: taskListSchema, ...errors },
      },
    },
    async (request) => {
      const page = await listOwnJobs(app.db, request.user.id, request.query);
      return { result: page.rows.map(toTask), count: page.count };
    },
  );

  api.get(
    '/:taskId',
    {
      config: ownTasks,
      schema: {
        tags: ['tasks'],
        summary: 'One of the caller’s tasks: status, progress and, after a failure, why',
        params: z.object({ taskId: z.string().uuid('Task not found') }),
        response: { 200: taskSchema, ...errors },
      },
    },
    async (request) => {
      const job = await findOwnJob(app.db, request.user.id, request.params.taskId);
      if (!job) throw taskNotFound();
      return toTask(job);
    },
  );
}
