// The signed-in app's broker client (issue 4 "Broker client"): started once the user and the runtime
// config are known, with the auth actor's current access token; stopped on sign-out (the Shell unmounts)
// or when the user changes. MQTT.js is heavy, so the adapter is imported on demand: neither the entry
// chunk nor the shell chunk carries it.
//
// The broker is only the doorbell: every message makes the notifications list refetch from the database,
// and so does every (re)connection, so a notification published while this browser was offline or the
// broker was down still shows, once.
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { CurrentUser } from '../../../contracts/auth';
import { CUSTOMER_HELP_CHATS } from '../../../contracts/help-chats';
import type { PermissionMap } from '../../../contracts/permissions';
import { canOpenRoute } from '../../../contracts/routes';
import { refreshNotifications } from '../../features/notifications/api';
import type { LiveStatus } from '../../features/notifications/NotificationBell';
import { useAuthActor, useAuthSelector } from '../../services/auth-context';
import type { BrokerHandle, BrokerSession } from '../../services/broker-adapter';
import { askNotificationPermissionOnce, showSystemNotification } from '../../services/browser-notifications';
import { chatEvents } from '../../services/chat-events';
import { clientSettingsKey, createSettingsMessageHandler } from '../../services/client-settings';
import { useRuntimeConfig } from '../../services/runtime-config';
import { useCurrentUser, useSidebar } from '../../services/session-queries';
import { removeTask } from '../../services/tasks';
import { notify } from '../../ui/notify';
import { playNotificationSound } from '../../ui/sound';
import { createBrokerMessageHandler } from './realtime-handlers';

type BrokerAdapterModule = typeof import('../../services/broker-adapter');

export interface RealtimeState {
  liveStatus: LiveStatus;
  /** The notify flag: something arrived since the drawer was last opened. */
  hasNew: boolean;
  /** The drawer was opened. */
  markSeen: () => void;
}

const RealtimeContext = createContext<RealtimeState>({
  liveStatus: 'notConnected',
  hasNew: false,
  markSeen: () => {},
});

export const useRealtime = (): RealtimeState => useContext(RealtimeContext);

/**
 * Who the broker authorises (contracts/broker-topics.ts): one role, the strongest the user has, and
 * whether their permissions open the all-chats inbox (the broker decides the same from the server's).
 */
export function brokerSessionOf(user: CurrentUser, permissions: PermissionMap = {}): BrokerSession {
  const role: BrokerSession['role'] =
    user.isAdmin || user.roles.includes('Admin')
      ? 'Admin'
      : user.isSeller || (user.roles.includes('Seller') && !user.roles.includes('Staff'))
        ? 'Seller'
        : 'Staff';
  const session: BrokerSession = { userId: user.id, role, sellerId: user.seller?.sellerId ?? null };
  if (role !== 'Seller' && canOpenRoute(CUSTOMER_HELP_CHATS, permissions)) session.readsAllChats = true;
  return session;
}

interface RunningBroker {
  handle: BrokerHandle;
  adapter: BrokerAdapterModule;
}

function useBrokerStatus(running: RunningBroker | null): LiveStatus {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!running) return () => {};
      const subscription = running.handle.actor.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [running],
  );
  return useSyncExternalStore(subscribe, () =>
    running ? running.adapter.selectBrokerStatus(running.handle.actor.getSnapshot()) : 'notConnected',
  );
}

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const auth = useAuthActor();
  const token = useAuthSelector((snapshot) => snapshot.context.auth?.accessToken ?? null);
  const user = useCurrentUser();
  const config = useRuntimeConfig();
  const client = useQueryClient();
  const [running, setRunning] = useState<RunningBroker | null>(null);
  const [hasNew, setHasNew] = useState(false);
  const startedWith = useRef<string | null>(null);

  const sidebar = useSidebar();
  const session = user.data && sidebar.data ? brokerSessionOf(user.data, sidebar.data.permissions) : null;
  // Primitive keys: the broker restarts only when who or where changes, not on every refetch.
  const sessionKey = session
    ? `${session.userId}|${session.role}|${session.sellerId ?? ''}|${session.readsAllChats ?? false}`
    : null;
  const mqttUrl = config.data?.mqttUrl ?? null;
  const prefix = config.data?.mqttTopicPrefix ?? null;
  const keepaliveSeconds = config.data?.mqttKeepaliveSeconds;

  useEffect(() => {
    void askNotificationPermissionOnce();
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `session` is keyed by `sessionKey`
  useEffect(() => {
    if (!session || prefix === null) return;
    let cancelled = false;
    let handle: BrokerHandle | null = null;
    const refresh = () => void refreshNotifications(client);
    const onMessage = createBrokerMessageHandler({
      refreshNotifications: refresh,
      playSound: () => void playNotificationSound(),
      markNew: () => setHasNew(true),
      toast: (options) => notify(options),
      systemNotification: (title, options) => showSystemNotification(title, options),
      removeTask,
      emitChat: (message) => chatEvents.emit(message),
    });
    // Settings changes (issue 29): refetch the client settings and every settings view.
    const onSettings = createSettingsMessageHandler({
      client,
      prefix,
      userId: session.userId,
      sellerId: session.sellerId,
    });
    const getAccessToken = () => auth.getSnapshot().context.auth?.accessToken ?? null;
    import('../../services/broker-adapter').then(
      (adapter) => {
        if (cancelled) return;
        startedWith.current = getAccessToken();
        handle = adapter.startBroker({
          url: adapter.brokerUrlFor(window.location, mqttUrl),
          prefix,
          timing: keepaliveSeconds ? { keepaliveSeconds } : undefined,
          session,
          getAccessToken,
          onMessage: (topic, payload) => {
            if (!onSettings(topic, payload)) onMessage(topic, payload);
          },
          // No onReconnected: the status effect below refetches on every move to connected.
          onError: (message) => console.warn(`Live updates: ${message}`),
        });
        setRunning({ handle, adapter });
      },
      (error: unknown) => console.error('Could not load the broker client', error),
    );
    return () => {
      cancelled = true;
      handle?.stop();
      setRunning(null);
    };
  }, [sessionKey, prefix, mqttUrl, keepaliveSeconds, auth, client]);

  // A fresh access token (silent refresh): the client reconnects with it before the old one expires.
  useEffect(() => {
    if (!running || !token || token === startedWith.current) return;
    startedWith.current = token;
    running.handle.tokenChanged();
  }, [running, token]);

  const liveStatus = useBrokerStatus(running);

  // Every (re)connection refetches the mailbox: whatever was published while the client was away
  // shows now, and only once, because it is the database's list.
  // A settings change missed while away: a reconnection (not the first connection) refetches them too.
  const wasConnected = useRef(false);
  const connectedBefore = useRef(false);
  useEffect(() => {
    const connected = liveStatus === 'connected';
    if (connected && !wasConnected.current) {
      void refreshNotifications(client);
      if (connectedBefore.current) void client.invalidateQueries({ queryKey: clientSettingsKey });
      connectedBefore.current = true;
    }
    wasConnected.current = connected;
  }, [liveStatus, client]);

  // The browser itself came back online (the broker may take a while to notice).
  useEffect(() => {
    const onOnline = () => void refreshNotifications(client);
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [client]);

  const markSeen = useCallback(() => setHasNew(false), []);
  const value = useMemo(() => ({ liveStatus, hasNew, markSeen }), [liveStatus, hasNew, markSeen]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
