import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  acknowledgeTasks,
  handleTaskResponse,
  hasTaskStatus,
  removeTask,
  replaceTasks,
  resetTasks,
  taskStore,
} from './tasks';

afterEach(() => resetTasks());

describe('task handler', () => {
  it('adds {name, timestamp} under the task id and raises the "task generated" flag', () => {
    const id = handleTaskResponse(
      { taskStatus: { taskId: 't-1', taskName: 'Export sellers', status: 'Pending' } },
      1000,
    );
    expect(id).toBe('t-1');
    expect(taskStore.getSnapshot()).toEqual({
      taskGenerated: true,
      tasks: { 't-1': { name: 'Export sellers', timestamp: 1000 } },
    });
  });

  it('accepts numeric task ids and keeps earlier tasks', () => {
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'A' } }, 1);
    handleTaskResponse({ taskStatus: { taskId: 7, taskName: 'B', status: 'Pending' } }, 2);
    expect(taskStore.getSnapshot().tasks).toEqual({
      't-1': { name: 'A', timestamp: 1 },
      '7': { name: 'B', timestamp: 2 },
    });
  });

  it('ignores bodies without a usable taskStatus', () => {
    for (const body of [
      null,
      'text',
      { result: [] },
      { taskStatus: {} },
      { taskStatus: { taskId: '', taskName: 'x' } },
    ]) {
      expect(hasTaskStatus(body)).toBe(false);
      expect(handleTaskResponse(body)).toBeNull();
    }
    expect(taskStore.getSnapshot()).toEqual({ taskGenerated: false, tasks: {} });
  });

  it('notifies subscribers on change only', () => {
    const listener = vi.fn();
    const unsubscribe = taskStore.subscribe(listener);
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'A' } }, 1);
    replaceTasks({ 't-1': { name: 'A', timestamp: 1 } });
    expect(listener).toHaveBeenCalledTimes(1);
    acknowledgeTasks();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(taskStore.getSnapshot().taskGenerated).toBe(false);
    unsubscribe();
    removeTask('t-1');
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('removeTask forgets the task and returns it', () => {
    handleTaskResponse({ taskStatus: { taskId: 't-1', taskName: 'Import', status: 'Pending' } }, 5);
    expect(removeTask('t-1')).toEqual({ name: 'Import', timestamp: 5 });
    expect(removeTask('t-1')).toBeUndefined();
    expect(taskStore.getSnapshot().tasks).toEqual({});
  });
});
