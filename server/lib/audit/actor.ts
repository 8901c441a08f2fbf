// Who an audit entry names. The signed-in user's name is read by `actorOf` (server/modules/users/actor.ts).

export interface Actor {
  id: string | null;
  name: string;
}

/** Changes the system makes on its own (a subscription period ending, a job's outcome) carry this actor. */
export const SYSTEM_ACTOR: Actor = { id: null, name: 'System' };

/** Entries nobody in particular made (a mail's outcome, a recipient's answer): shown without a name. */
export const NO_ACTOR: Actor = { id: null, name: '' };
