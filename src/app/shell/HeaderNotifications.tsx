import { NotificationCenter } from '../../features/notifications/NotificationCenter';
import { useRealtime } from './realtime';

/** The header's running tasks, bell and drawer, fed by the shell's broker client. */
export function HeaderNotifications() {
  const { liveStatus, hasNew, markSeen } = useRealtime();
  return <NotificationCenter liveStatus={liveStatus} hasNew={hasNew} onSeen={markSeen} />;
}
