import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from './api';
import { useEscapeCloses } from './escape-closes';
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

/**
 * On a narrow screen the navigation and the account links fold into a menu behind one button (the
 * style sheet hides the button on wide screens, where the menu is always shown). The menu closes
 * when a page is chosen and on Escape, which gives the focus back to the button.
 */
const useMenu = () => {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { url } = useLocation();
  useEffect(() => setOpen(false), [url]);
  useEscapeCloses(open, () => setOpen(false), button);
  return { open, button, toggle: () => setOpen((was) => !was) };
};

export const Layout = ({ children }: { children: ComponentChildren }) => {
  const { user, signOut } = useSession();
  const menu = useMenu();
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
        <button
          type="button"
          class="menu-button"
          ref={menu.button}
          aria-expanded={menu.open}
          aria-controls="main-menu"
          onClick={menu.toggle}
        >
          Menu
        </button>
        <div id="main-menu" class={menu.open ? 'menu is-open' : 'menu'}>
          <nav aria-label="Main">
            <NavLink href="/flows">Flows</NavLink>
            <NavLink href="/executions">Executions</NavLink>
            <NavLink href="/form-entities">Forms</NavLink>
            <NavLink href="/connections">Connections</NavLink>
            <NavLink href="/agents">Agents</NavLink>
            <NavLink href="/mcp-servers">MCP servers</NavLink>
            {user.role?.isAdmin && <NavLink href="/admin">Administration</NavLink>}
          </nav>
          <div class="account">
            <NavLink href="/profile">{user.fullName}</NavLink>
            <button type="button" class="link" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
};
