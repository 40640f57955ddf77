import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../composition/cli.js';
import { cliHost } from '../../composition/cli-host.js';
import type { UseCases } from '../../core/application/use-cases.js';
import type { Actor } from '../../core/domain/actor.js';
import type { DomainError } from '../../core/domain/errors.js';
import type { Result } from '../../core/domain/result.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/databases.js';
import { type SmtpSink, startSmtpSink } from '../../test/support/smtp-sink.js';

const PASSWORD = 'correct horse battery staple 42';
const EMAIL = 'ada@example.com';
/** Each command opens its instance anew; a test runs a score of them. */
const SLOW = 90_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const value = <T>(result: Result<T, DomainError>): T => {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
};

/** The folder's files and their bytes, by name. */
const filesIn = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );

/**
 * Issue 19 item 4, flows as files: export a user's flows from instance A, apply them to a second,
 * empty instance B (its own database), export B: the folders are byte for byte the same. Applying
 * again changes nothing; an edited file publishes a new version; a bad file changes nothing.
 */
describe.each(DIALECTS)('conveyor flows export and apply (%s)', (dialect) => {
  let databases: TestDatabase[];
  let dir: string;
  let sink: SmtpSink;
  let envA: Record<string, string>;
  let envB: Record<string, string>;

  const cli = async (env: Record<string, string>, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env,
      stdin: Readable.from(['']),
    });
    return { code, stdout, stderr };
  };

  /** Runs `work` with the use cases of an instance, as its administrator Ada. */
  const on = <T>(env: Record<string, string>, work: (useCases: UseCases, actor: Actor) => Promise<T>) =>
    cliHost.withUseCases({ stdout: { write: () => true }, stderr: { write: () => true }, env }, async (useCases) =>
      work(useCases, value(await useCases.operatorActor(EMAIL))),
    );

  const install = async (env: Record<string, string>) => {
    const result = await cli(
      { ...env, CONVEYOR_ADMIN_PASSWORD: PASSWORD },
      'create-admin',
      '--email',
      EMAIL,
      '--full-name',
      'Ada',
    );
    expect(result.stderr).not.toContain('conveyor:');
  };

  /** A verified smtp connection to the sink, whose name (the app's screen name) is its sender. */
  const connect = async (useCases: UseCases, actor: Actor, fromEmail: string) => {
    const formattedData = { host: '127.0.0.1', port: sink.port, secure: false, fromEmail };
    const created = value(await useCases.createConnection(actor, 'smtp', { formattedData }));
    return value(await useCases.verifyConnection(actor, created.id)).id;
  };

  /** Each of the user's flows: what apply must leave alone when nothing changed. */
  const state = (env: Record<string, string>) =>
    on(env, async (useCases, actor) => {
      const flows = value(await useCases.listFlows(actor, { onlyOwnedFlows: true }, { page: 1, perPage: 100 })).items;
      const rows = await Promise.all(
        flows.map(async (flow) => {
          const versions = value(await useCases.flowHistory.list(actor, flow.id, { page: 1, perPage: 100 }));
          return [
            flow.name,
            {
              id: flow.id,
              active: flow.active,
              draftRevision: flow.draftRevision,
              hasDraftChanges: flow.hasDraftChanges,
              published: flow.publishedVersion?.number ?? null,
              versions: versions.items.map((v) => ({ number: v.number, message: v.message })),
              steps: flow.steps.map((s) => ({ id: s.id, status: s.status })),
              updatedAt: flow.updatedAt.getTime(),
            },
          ] as const;
        }),
      );
      return Object.fromEntries(rows);
    });

  beforeEach(async () => {
    databases = [
      await createTestDatabase(dialect, { onDisk: true }),
      await createTestDatabase(dialect, { onDisk: true }),
    ];
    dir = mkdtempSync(join(tmpdir(), 'conveyor-flows-'));
    sink = await startSmtpSink();
    const env = (database: TestDatabase) => ({
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: 'f'.repeat(64),
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_NETWORKS: 'true',
    });
    envA = env(databases[0] as TestDatabase);
    envB = env(databases[1] as TestDatabase);
    await install(envA);
  });

  afterEach(async () => {
    await sink.close();
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * On A: "Orders to mail", active, in folder Sales: a webhook, a formatter reading the webhook's
   * body, a mail using the formatter's output through a connection. "Nightly report", inactive,
   * in no folder: a schedule, a datastore step, and an action nobody chose yet.
   */
  const buildOnA = () =>
    on(envA, async (useCases, actor) => {
      const connectionId = await connect(useCases, actor, 'orders@conveyor.test');
      const folder = value(await useCases.createFolder(actor, { name: 'Sales' }));

      const orders = value(await useCases.createFlow(actor, {}));
      const [trigger, upper] = orders.steps.map((s) => s.id) as [string, string];
      value(await useCases.updateFlow(actor, orders.id, { name: 'Orders to mail' }));
      value(
        await useCases.updateStep(actor, trigger, {
          appKey: 'webhook',
          key: 'catchRawWebhook',
          name: 'Order arrives',
          parameters: { workSynchronously: false },
        }),
      );
      value(
        await useCases.updateStep(actor, upper, {
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'uppercase', input: `{{step.${trigger}.body.customer.name}}` },
          continueOnFailure: true,
        }),
      );
      const mail = value(await useCases.createStep(actor, orders.id, { previousStepId: upper })).value.id;
      value(
        await useCases.updateStep(actor, mail, {
          appKey: 'smtp',
          key: 'sendEmail',
          name: 'Tell the customer',
          connectionId,
          parameters: {
            to: `{{step.${trigger}.body.customer.email}}`,
            subject: `Your order, {{step.${upper}.output}}`,
            body: 'It ships today.',
          },
        }),
      );
      value(await useCases.updateFlowFolder(actor, orders.id, { folderId: folder.id }));
      value(await useCases.updateFlowStatus(actor, orders.id, { active: true }));

      const nightly = value(await useCases.createFlow(actor, {}));
      const [schedule, store] = nightly.steps.map((s) => s.id) as [string, string];
      value(await useCases.updateFlow(actor, nightly.id, { name: 'Nightly report' }));
      value(
        await useCases.updateStep(actor, schedule, {
          appKey: 'scheduler',
          key: 'everyDay',
          parameters: { hour: 3, triggersOnWeekend: false },
        }),
      );
      value(
        await useCases.updateStep(actor, store, {
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'last-run', value: `{{step.${schedule}.firedAt}}` },
        }),
      );
      value(await useCases.createStep(actor, nightly.id, { previousStepId: store }));
    });

  /** B: installed, with two smtp connections, one of them named as A's. */
  const prepareB = async () => {
    await install(envB);
    return on(envB, async (useCases, actor) => ({
      other: await connect(useCases, actor, 'someone-else@conveyor.test'),
      orders: await connect(useCases, actor, 'orders@conveyor.test'),
    }));
  };

  it(
    'exports A, applies to an empty B, exports B: the same bytes; applying again changes nothing',
    async () => {
      await buildOnA();
      const fromA = join(dir, 'a');
      const exported = await cli(envA, 'flows', 'export', '--dir', fromA, '--user', EMAIL);
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      expect(exported.stdout).toBe(
        [
          'wrote nightly-report.flow.json: "Nightly report"',
          'wrote orders-to-mail.flow.json: "Orders to mail"',
          `Exported 2 flows of ${EMAIL} to ${fromA}.`,
          '',
        ].join('\n'),
      );
      const filesA = filesIn(fromA);
      expect(Object.keys(filesA)).toEqual(['nightly-report.flow.json', 'orders-to-mail.flow.json']);
      const orders = JSON.parse(filesA['orders-to-mail.flow.json'] as string);
      expect(orders).toEqual({
        format: 'conveyor-flow/1',
        key: 'orders-to-mail',
        name: 'Orders to mail',
        active: true,
        folder: 'Sales',
        steps: [
          {
            id: 'step1',
            type: 'trigger',
            appKey: 'webhook',
            key: 'catchRawWebhook',
            name: 'Order arrives',
            parameters: { workSynchronously: false },
            continueOnFailure: false,
            connection: null,
          },
          {
            id: 'step2',
            type: 'action',
            appKey: 'formatter',
            key: 'text',
            name: null,
            parameters: { input: '{{step.step1.body.customer.name}}', transform: 'uppercase' },
            continueOnFailure: true,
            connection: null,
          },
          {
            id: 'step3',
            type: 'action',
            appKey: 'smtp',
            key: 'sendEmail',
            name: 'Tell the customer',
            parameters: {
              body: 'It ships today.',
              subject: 'Your order, {{step.step2.output}}',
              to: '{{step.step1.body.customer.email}}',
            },
            continueOnFailure: false,
            connection: { appKey: 'smtp', name: 'orders@conveyor.test' },
          },
        ],
      });
      expect(JSON.parse(filesA['nightly-report.flow.json'] as string)).toMatchObject({
        active: false,
        folder: null,
        steps: [
          { id: 'step1' },
          { id: 'step2', parameters: { value: '{{step.step1.firedAt}}' } },
          { id: 'step3', appKey: null },
        ],
      });
      // Nothing of the instance: no ids, no timestamps, no credentials.
      for (const text of Object.values(filesA)) {
        expect(text).not.toMatch(UUID);
        expect(text).not.toMatch(/"(createdAt|updatedAt|position|status|webhookPath|password)"/);
      }

      const connections = await prepareB();
      const applied = await cli(envB, 'flows', 'apply', '--dir', fromA, '--user', EMAIL);
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toBe(
        [
          'created nightly-report.flow.json: "Nightly report"',
          'created orders-to-mail.flow.json: "Orders to mail", published as version 1',
          'created folder "Sales"',
          'Applied 2 files: 2 flows changed.',
          '',
        ].join('\n'),
      );
      const onB = await state(envB);
      expect(onB['Orders to mail']).toMatchObject({
        active: true,
        hasDraftChanges: false,
        published: 1,
        versions: [{ number: 1, message: 'Applied from orders-to-mail.flow.json' }],
        steps: [{ status: 'completed' }, { status: 'completed' }, { status: 'completed' }],
      });
      expect(onB['Nightly report']).toMatchObject({ active: false, published: null, versions: [] });
      // The step uses B's connection of that name, not the other one.
      const mailStep = await on(envB, async (useCases, actor) =>
        value(await useCases.getFlow(actor, onB['Orders to mail']?.id as string)).steps.at(-1),
      );
      expect(mailStep?.connectionId).toBe(connections.orders);

      const fromB = join(dir, 'b');
      expect((await cli(envB, 'flows', 'export', '--dir', fromB, '--user', EMAIL)).code).toBe(0);
      expect(filesIn(fromB)).toEqual(filesA);
      for (const name of Object.keys(filesA)) {
        expect(Buffer.compare(readFileSync(join(fromA, name)), readFileSync(join(fromB, name)))).toBe(0);
      }

      // Again: nothing changes, on B nor on A (whose flows the first export gave their keys).
      for (const env of [envB, envA]) {
        const before = await state(env);
        const again = await cli(env, 'flows', 'apply', '--dir', fromA, '--user', EMAIL);
        expect(again.code).toBe(0);
        expect(again.stdout).toBe(
          [
            'unchanged nightly-report.flow.json: "Nightly report"',
            'unchanged orders-to-mail.flow.json: "Orders to mail"',
            'Applied 2 files: 0 flows changed.',
            '',
          ].join('\n'),
        );
        expect(await state(env)).toEqual(before);
      }
      const reexported = await cli(envB, 'flows', 'export', '--dir', fromB, '--user', EMAIL);
      expect(reexported.stdout).toContain('unchanged orders-to-mail.flow.json');
      expect(filesIn(fromB)).toEqual(filesA);
    },
    SLOW,
  );

  it(
    'publishes an edited file as a new version, keeping the step ids; stops a flow a file says is inactive',
    async () => {
      await buildOnA();
      await cli(envA, 'flows', 'export', '--dir', dir, '--user', EMAIL);
      const before = (await state(envA))['Orders to mail'];
      const path = join(dir, 'orders-to-mail.flow.json');
      writeFileSync(path, readFileSync(path, 'utf8').replace('It ships today.', 'It ships tomorrow.'));
      const nightly = join(dir, 'nightly-report.flow.json');
      writeFileSync(nightly, readFileSync(nightly, 'utf8').replace('"name": "Nightly report"', '"name": "Nightly"'));

      const dryRun = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL, '--dry-run');
      expect(dryRun.stdout).toBe(
        [
          'would update nightly-report.flow.json: "Nightly", name changed',
          'would update orders-to-mail.flow.json: "Orders to mail", steps changed, published as version 2',
          'Dry run: 2 of 2 flows would change; nothing was changed.',
          '',
        ].join('\n'),
      );
      expect((await state(envA))['Orders to mail']).toEqual(before);

      const applied = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(applied.stdout).toBe(
        [
          'updated nightly-report.flow.json: "Nightly", name changed',
          'updated orders-to-mail.flow.json: "Orders to mail", steps changed, published as version 2',
          'Applied 2 files: 2 flows changed.',
          '',
        ].join('\n'),
      );
      const after = (await state(envA))['Orders to mail'];
      expect(after).toMatchObject({
        active: true,
        hasDraftChanges: false,
        published: 2,
        versions: [
          { number: 2, message: 'Applied from orders-to-mail.flow.json' },
          { number: 1, message: null },
        ],
        steps: before?.steps,
        draftRevision: (before?.draftRevision ?? 0) + 1,
      });
      const version = await on(envA, async (useCases, actor) => {
        const id = after?.id as string;
        const newest = value(await useCases.flowHistory.list(actor, id, { page: 1, perPage: 1 })).items[0];
        return value(await useCases.flowHistory.get(actor, id, newest?.id as string));
      });
      expect(version.steps.at(-1)?.parameters).toMatchObject({ body: 'It ships tomorrow.' });

      writeFileSync(path, readFileSync(path, 'utf8').replace('"active": true', '"active": false'));
      const stopped = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(stopped.stdout).toContain('updated orders-to-mail.flow.json: "Orders to mail", deactivated\n');
      expect((await state(envA))['Orders to mail']).toMatchObject({ active: false, published: 2 });
      writeFileSync(path, readFileSync(path, 'utf8').replace('"active": false', '"active": true'));
      const restarted = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(restarted.stdout).toContain(
        'updated orders-to-mail.flow.json: "Orders to mail", active again on version 2\n',
      );
    },
    SLOW,
  );

  it(
    'carries a flow with paths and a loop: the same bytes through B, a moved step applied, a broken tree refused',
    async () => {
      const tree = await on(envA, async (useCases, actor) => {
        const flow = value(await useCases.createFlow(actor, {}));
        const [trigger, last] = flow.steps.map((s) => s.id) as [string, string];
        value(await useCases.updateFlow(actor, flow.id, { name: 'Sorting' }));
        value(await useCases.updateStep(actor, trigger, { appKey: 'webhook', key: 'catchRawWebhook' }));
        const paths = value(
          await useCases.createStep(actor, flow.id, { previousStepId: trigger, structuralType: 'paths' }),
        ).value.id;
        const branch = value(await useCases.getFlow(actor, flow.id)).steps[2]?.id;
        value(
          await useCases.updateStep(actor, branch as string, {
            branchConditions: [{ and: [{ key: `{{step.${trigger}.body.kind}}`, operator: 'equal', value: 'a' }] }],
          }),
        );
        const loop = value(await useCases.createStep(actor, flow.id, { previousStepId: paths, structuralType: 'loop' }))
          .value.id;
        value(await useCases.updateStep(actor, loop, { parameters: { items: `{{step.${trigger}.body.items}}` } }));
        return { flowId: flow.id, last };
      });
      const fromA = join(dir, 'a');
      expect((await cli(envA, 'flows', 'export', '--dir', fromA, '--user', EMAIL)).code).toBe(0);
      const filesA = filesIn(fromA);
      const file = JSON.parse(filesA['sorting.flow.json'] as string);
      expect(file.steps.map((s: Record<string, unknown>) => [s.id, s.structuralType, s.parentStepId])).toEqual([
        ['step1', undefined, undefined],
        ['step2', 'paths', undefined],
        ['step3', 'branch', 'step2'],
        ['step4', undefined, 'step3'],
        ['step5', 'branch', 'step2'],
        ['step6', undefined, 'step5'],
        ['step7', 'loop', undefined],
        ['step8', undefined, 'step7'],
        ['step9', undefined, undefined],
      ]);
      expect(file.steps[2].branchConditions).toEqual([
        { and: [{ key: '{{step.step1.body.kind}}', operator: 'equal', value: 'a' }] },
      ]);
      expect(file.steps[4].branchConditions).toEqual([]);

      await prepareB();
      expect((await cli(envB, 'flows', 'apply', '--dir', fromA, '--user', EMAIL)).stdout).toContain(
        'created sorting.flow.json: "Sorting"\n',
      );
      const fromB = join(dir, 'b');
      expect((await cli(envB, 'flows', 'export', '--dir', fromB, '--user', EMAIL)).code).toBe(0);
      expect(filesIn(fromB)).toEqual(filesA);
      expect((await cli(envB, 'flows', 'apply', '--dir', fromA, '--user', EMAIL)).stdout).toContain(
        'unchanged sorting.flow.json',
      );

      // The last step moves into the loop in the file: applying moves it on A, under its own id.
      const moved = { ...file, steps: [...file.steps] };
      moved.steps[8] = { ...moved.steps[8], parentStepId: 'step7' };
      writeFileSync(join(fromA, 'sorting.flow.json'), JSON.stringify(moved));
      expect((await cli(envA, 'flows', 'apply', '--dir', fromA, '--user', EMAIL)).stdout).toContain(
        'updated sorting.flow.json: "Sorting", steps changed\n',
      );
      const steps = await on(envA, async (useCases, actor) => value(await useCases.getFlow(actor, tree.flowId)).steps);
      expect(steps.at(-1)).toMatchObject({ id: tree.last, parentStepId: steps[6]?.id, position: 9 });

      const broken = {
        ...file,
        steps: file.steps.map((s: object, i: number) => (i === 3 ? { ...s, parentStepId: 'step2' } : s)),
      };
      writeFileSync(join(fromA, 'sorting.flow.json'), JSON.stringify(broken));
      const refused = await cli(envA, 'flows', 'apply', '--dir', fromA, '--user', EMAIL);
      expect(refused.stderr).toBe(
        [
          'conveyor: Nothing was applied: 1 problem:',
          '  sorting.flow.json: steps.3.parentStepId is a paths step, which holds only branches.',
          '',
        ].join('\n'),
      );
    },
    SLOW,
  );

  it(
    'refuses files it cannot apply, each problem on its line, and changes nothing',
    async () => {
      await buildOnA();
      await cli(envA, 'flows', 'export', '--dir', dir, '--user', EMAIL);
      const before = await state(envA);
      const orders = join(dir, 'orders-to-mail.flow.json');
      const file = JSON.parse(readFileSync(orders, 'utf8'));
      // A fine change beside the bad ones: it must not be applied either.
      file.steps[2].parameters.body = 'Changed';
      file.steps[2].connection.name = 'nobody@conveyor.test';
      file.steps[1].appKey = 'no-such-app';
      file.folder = 'Marketing';
      writeFileSync(orders, JSON.stringify(file));
      writeFileSync(
        join(dir, 'new-one.flow.json'),
        JSON.stringify({ ...file, key: 'new-one', steps: [{ ...file.steps[0], type: 'action' }] }),
      );
      writeFileSync(join(dir, 'README.md'), 'Not a flow file: ignored.\n');

      const refused = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        [
          'conveyor: Nothing was applied: 3 problems:',
          '  new-one.flow.json: steps The first step must be a trigger.',
          '  orders-to-mail.flow.json: steps.1.appKey is not a known app.',
          '  orders-to-mail.flow.json: steps.2.connection names no smtp connection named "nobody@conveyor.test" of the user.',
          '',
        ].join('\n'),
      );
      expect(await state(envA)).toEqual(before);

      writeFileSync(join(dir, 'new-one.flow.json'), '{ "format": "conveyor-flow/2", "extra": 1 }');
      writeFileSync(join(dir, 'broken.flow.json'), '{ not json');
      const unreadable = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toMatch(
        /^conveyor: Nothing was applied: \d+ problems:\n {2}broken\.flow\.json: is not JSON: /,
      );
      expect(unreadable.stderr).toContain(
        '  new-one.flow.json: format must be "conveyor-flow/1" (this release reads no other).\n',
      );
      expect(unreadable.stderr).toContain('  new-one.flow.json: extra is not a field of a flow file.\n');
      expect(await state(envA)).toEqual(before);
    },
    SLOW,
  );

  it(
    'an active file that cannot be published is refused; export leaves stale files unless --prune',
    async () => {
      await buildOnA();
      await cli(envA, 'flows', 'export', '--dir', dir, '--user', EMAIL);
      const nightly = join(dir, 'nightly-report.flow.json');
      writeFileSync(nightly, readFileSync(nightly, 'utf8').replace('"active": false', '"active": true'));
      const refused = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(refused.stderr).toBe(
        'conveyor: Nothing was applied: 1 problem:\n  nightly-report.flow.json: All steps must be completed before the flow is published.\n',
      );

      writeFileSync(join(dir, 'gone.flow.json'), '{}');
      const kept = await cli(envA, 'flows', 'export', '--dir', dir, '--user', EMAIL);
      expect(kept.stdout).toContain(
        `stale gone.flow.json: no flow of ${EMAIL} has the key gone (left; --prune removes it)\n`,
      );
      expect(kept.stdout).toContain('wrote nightly-report.flow.json');
      expect(kept.stdout).toContain('unchanged orders-to-mail.flow.json');
      const pruned = await cli(envA, 'flows', 'export', '--dir', dir, '--user', EMAIL, '--prune');
      expect(pruned.stdout).toContain('removed gone.flow.json');
      expect(Object.keys(filesIn(dir))).toEqual(['nightly-report.flow.json', 'orders-to-mail.flow.json']);

      // A flow of the user with no file is left alone, and said so.
      await on(envA, async (useCases, actor) => value(await useCases.createFlow(actor, {})));
      const alone = await cli(envA, 'flows', 'apply', '--dir', dir, '--user', EMAIL);
      expect(alone.stdout).toContain('left alone: "Name your flow" (never exported)\n');
    },
    SLOW,
  );
});

describe('conveyor flows usage', () => {
  const run = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      env: { DATABASE_POOL_SIZE: 'many' },
    });
    return { code, stdout, stderr };
  };

  it.each([
    [['flows', '--help'], 'Usage: conveyor flows <export|apply>'],
    [['help', 'flows'], 'Usage: conveyor flows <export|apply>'],
    [['flows', 'export', '--help'], 'Usage: conveyor flows export'],
    [['help', 'flows', 'export'], 'Usage: conveyor flows export'],
    [['flows', 'apply', '-h'], 'Usage: conveyor flows apply'],
    [['help', 'flows', 'apply'], 'Usage: conveyor flows apply'],
  ])('%j prints its usage', async (argv, usage) => {
    const { code, stdout } = await run(...argv);
    expect(code).toBe(0);
    expect(stdout.startsWith(usage)).toBe(true);
  });

  it('the overview lists them', async () => {
    const { stdout } = await run('--help');
    expect(stdout).toContain('flows export');
    expect(stdout).toContain('flows apply');
  });

  it.each([
    [['flows']],
    [['flows', 'sync']],
    [['flows', 'export', '--user', EMAIL]],
    [['flows', 'export', '--dir', 'x']],
    [['flows', 'apply', '--dir', 'x', '--user', EMAIL, '--prune']],
    [['help', 'flows', 'sync']],
  ])('%j is a usage error, before the database is opened', async (argv) => {
    const { code, stdout, stderr } = await run(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^conveyor: .+\n\nUsage: conveyor flows/);
  });
});
