import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession } from '../../session';
import { Page } from '../../ui';

const SECTIONS = [
  ['/admin/users', 'Users'],
  ['/admin/roles', 'Roles'],
  ['/admin/saml', 'Single sign-on'],
  ['/admin/apps', 'Apps'],
  ['/admin/templates', 'Templates'],
  ['/admin/api-tokens', 'API tokens'],
  ['/admin/settings', 'Settings and licence'],
] as const;

/** Every administration page: the section tabs, and a refusal for anyone not an administrator. */
export const AdminPage = ({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) => {
  const { user } = useSession();
  const { path } = useLocation();
  return (
    <Page title={title} actions={actions}>
      <nav class="tabs" aria-label="Administration">
        {SECTIONS.map(([href, label]) => (
          <a key={href} href={href} aria-current={path.startsWith(href) ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {user.role?.isAdmin ? children : <p class="alert alert-error">Only administrators can open this page.</p>}
    </Page>
  );
};
