import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ensureDebianPackage } from './debian-package.js';
import { freePort, type PrivateServer, startPrivateServer } from './services.js';

/** Debian's Dovecot (package dovecot-imapd): the real IMAP server the imap app is tested against. */
export const DOVECOT_PATH = '/usr/sbin/dovecot';

const ci = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether the IMAP suites run: Dovecot is installed with apt when missing. In CI a Dovecot that
 * cannot be installed fails the file; elsewhere its suite is skipped with a loud notice.
 * Use at a test file's top level: `describe.runIf(dovecotAvailable())(...)`.
 */
export const dovecotAvailable = (): boolean => {
  const found = ensureDebianPackage('dovecot-imapd', DOVECOT_PATH, 'dovecot');
  if ('path' in found) return true;
  if (ci) throw new Error(`CI=true: ${found.missing}; the IMAP suite is mandatory in CI.`);
  process.stderr.write(`\n*** ${found.missing}: the IMAP suite is SKIPPED. ***\n\n`);
  return false;
};

export interface PrivateDovecot extends PrivateServer {
  /** Stops Dovecot and removes its directory (configuration, mail, logs). */
  remove(): Promise<void>;
}

const id = (name: string, flag: '-u' | '-g' | '-gn') => execFileSync('id', [flag, name], { encoding: 'utf8' }).trim();

/**
 * A Dovecot of the test's own, IMAP only, on a free port of 127.0.0.1 without TLS: a generated
 * configuration in a temporary directory (runtime files, state, log and maildirs there too, no
 * systemd), users with plain passwords. `stop()` and `start()` restart it for real.
 */
export const startDovecot = async (users: Readonly<Record<string, string>>): Promise<PrivateDovecot> => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-dovecot-'));
  // Dovecot's own users (login, internal) and the mail user must reach into it.
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  // As root, Dovecot drops to the users its package creates; otherwise everything runs as us.
  const me = userInfo().username;
  const [loginUser, internalUser, mailUser] = root ? ['dovenull', 'dovecot', 'dovecot'] : [me, me, me];
  const uid = Number(id(mailUser, '-u'));
  const gid = Number(id(mailUser, '-g'));
  const mail = join(dir, 'mail');
  mkdirSync(mail);
  if (root) chownSync(mail, uid, gid);
  const passwd = join(dir, 'users');
  writeFileSync(
    passwd,
    Object.entries(users)
      .map(([user, password]) => `${user}:{PLAIN}${password}:${uid}:${gid}::${join(mail, user)}\n`)
      .join(''),
  );
  const port = await freePort();
  const config = join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${join(dir, 'run')}
state_dir = ${join(dir, 'state')}
log_path = ${join(dir, 'dovecot.log')}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A refused password is answered at once, and costs the next logins from 127.0.0.1 no penalty.
auth_failure_delay = 0
default_login_user = ${loginUser}
default_internal_user = ${internalUser}
${root ? '' : `default_internal_group = ${id(me, '-gn')}\n`}first_valid_uid = 1
mail_location = maildir:${mail}/%u
# IDLE looks for new mail at once (inotify) and, where that is missing, every second.
mailbox_idle_check_interval = 1 secs
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwd}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
${root ? '' : '  chroot =\n'}}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
${root ? '' : '  chroot =\n'}}
`,
  );
  const server = await startPrivateServer(DOVECOT_PATH, () => ['-F', '-c', config], {
    port,
    readyTimeoutMs: 10_000,
    processGroup: true,
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...server,
    async remove() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
