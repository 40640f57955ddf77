import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ServiceInfo, User } from './types';

export interface Session {
  readonly user: User;
  readonly info: ServiceInfo;
  readonly signOut: () => Promise<void>;
  readonly refreshUser: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export const useSession = (): Session => {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
};
