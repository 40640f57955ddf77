import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { api } from './api';
import { useSession } from './session';
import { useLoad } from './ui';

const NavLink = ({ href, children }: { href: string; children: ComponentChildren }) => {
  const { path } = useLocation();
  const current = path === href || path.startsWith(`${href}/`);
  return (
    <a href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
};

export const Layout = ({ children }: { children: ComponentChildren }) => {
  const { user, signOut } = useSession();
  // The instance's own title, when an administrator set one.
  const config = useLoad(
    () =>
      api.get<{ title: string | null }>('/service/config').then(
        (r) => r.data,
        () => null,
      ),
    [],
  );
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/flows">
          {config.data?.title ?? 'Conveyor'}
        </a>
        <nav aria-label="Main">
          <NavLink href="/flows">Flows</NavLink>
          <NavLink href="/executions">Executions</NavLink>
          <NavLink href="/form-entities">Forms</NavLink>
          <NavLink href="/connections">Connections</NavLink>
          {user.role?.isAdmin && <NavLink href="/admin">Administration</NavLink>}
        </nav>
        <div class="account">
          <NavLink href="/profile">{user.fullName}</NavLink>
          <button type="button" class="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
};
