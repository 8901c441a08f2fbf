// Whose settings the page below shows: null for the user's own scope (the marketplace's for admins and
// staff, their shop's for a seller), or the shop an admin or staff member chose. Every settings request
// of the page (api.ts, history-api.ts) reads it, so no section needs to pass it on.
import { createContext, type ReactNode, useContext } from 'react';

const SettingsScopeContext = createContext<string | null>(null);

export function SettingsScopeProvider({
  sellerId,
  children,
}: {
  sellerId: string | null;
  children: ReactNode;
}) {
  return <SettingsScopeContext.Provider value={sellerId}>{children}</SettingsScopeContext.Provider>;
}

/** The chosen shop's id, or null: the user's own scope. */
export const useSettingsSellerId = () => useContext(SettingsScopeContext);

/** The query parameters that ask for the chosen shop's scope (none for the user's own). */
export const scopeParams = (sellerId: string | null) => (sellerId ? { sellerId } : {});
