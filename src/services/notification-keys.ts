// The bell's notification pages in the query cache: the shell's notifications feature fills them, and
// pages that go live on notifications (the queries inbox) watch them, so the key lives here for both.
import { queryKeys } from '../lib/query-keys';

export const notificationKeys = queryKeys('notifications');
