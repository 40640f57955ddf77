import { type Context, Hono } from 'hono';
import type { FlowView } from '../../../core/application/flows/flow-views.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { ifMatch, tagRevision } from '../draft-revision.js';
import { sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import {
  flowPresenters,
  presentComparison,
  presentFolder,
  presentVersion,
  presentVersionDetail,
} from '../presenters/flow.presenter.js';
import { unwrap } from '../respond.js';
import {
  createFlowQuery,
  createStepSchema,
  exportDocumentSchema,
  flowChangesSchema,
  flowFolderSchema,
  flowListQuery,
  flowStatusSchema,
  publishSchema,
  versionCompareQuery,
} from '../schemas/flows.schemas.js';
import { idParam, jsonBody, queryInput } from '../validation.js';

/** Flows, their status, folder, export and import, and the creation of steps in them. */
export const flowRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const present = flowPresenters(deps.settings.publicUrl);
  const id = (c: Context) => idParam(c, 'flowId', 'Flow');
  const may = requireAccess(deps);
  const readFlows = may({ to: 'permission', action: 'read', subject: 'Flow' });
  const manageFlows = may({ to: 'permission', action: 'manage', subject: 'Flow' });
  const manageFlow = may((c) => ({ to: 'flow', id: id(c), action: 'manage' }));
  const readFlow = may((c) => ({ to: 'flow', id: id(c), action: 'read' }));
  const versionId = (c: Context) => idParam(c, 'versionId', 'Version');
  /** A flow, with its draft's revision as the `ETag` a change of it sends back as `If-Match`. */
  const sendFlow = (c: Context, view: FlowView, status: 200 | 201 = 200) => {
    tagRevision(c, view.draftRevision);
    return sendOne(c, 'Flow', present.flow(view), status);
  };
  return (
    new Hono<AppEnv>()
      .use('/flows/*', requireActor(deps))
      .get('/flows', readFlows, async (c) => {
        const query = queryInput(c, flowListQuery);
        const page = unwrap(
          await useCases.listFlows(
            c.var.actor,
            {
              name: query.name,
              status: query.status,
              folderId: query.folderId === 'null' ? null : query.folderId,
              onlyOwnedFlows: query.onlyOwnedFlows === 'true',
            },
            pageQuery(c),
          ),
        );
        return sendPage(c, 'Flow', page, present.flow);
      })
      .post('/flows', manageFlows, async (c) => {
        const { templateId, builtInTemplate } = queryInput(c, createFlowQuery);
        const created = unwrap(await useCases.createFlow(c.var.actor, { templateId, builtInTemplate }));
        return sendOne(c, 'Flow', present.flow(created), 201);
      })
      .post('/flows/import', manageFlows, async (c) => {
        const document = await jsonBody(c, exportDocumentSchema);
        return sendOne(c, 'Flow', present.flow(unwrap(await useCases.importFlow(c.var.actor, document))), 201);
      })
      .get('/flows/:flowId', async (c) => sendFlow(c, unwrap(await useCases.getFlow(c.var.actor, id(c)))))
      .patch('/flows/:flowId', manageFlow, async (c) => {
        const flowId = id(c);
        const changes = await jsonBody(c, flowChangesSchema);
        return sendFlow(c, unwrap(await useCases.updateFlow(c.var.actor, flowId, changes, ifMatch(c))));
      })
      .delete('/flows/:flowId', async (c) => {
        unwrap(await useCases.deleteFlow(c.var.actor, id(c)));
        return sendNoContent(c);
      })
      .patch('/flows/:flowId/status', manageFlow, async (c) => {
        const flowId = id(c);
        const input = await jsonBody(c, flowStatusSchema);
        const basedOn = ifMatch(c);
        return sendFlow(c, unwrap(await useCases.updateFlowStatus(c.var.actor, flowId, { ...input, basedOn })));
      })
      .post('/flows/:flowId/versions', manageFlow, async (c) => {
        const flowId = id(c);
        const { message } = await jsonBody(c, publishSchema);
        const published = unwrap(await useCases.publishFlow(c.var.actor, flowId, { message, basedOn: ifMatch(c) }));
        return sendOne(c, 'FlowVersionDetail', presentVersionDetail(published.version), published.created ? 201 : 200);
      })
      .get('/flows/:flowId/versions', readFlow, async (c) => {
        const page = unwrap(await useCases.flowHistory.list(c.var.actor, id(c), pageQuery(c)));
        return sendPage(c, 'FlowVersion', page, presentVersion);
      })
      // Before `/versions/:versionId`, which would take "compare" for an id.
      .get('/flows/:flowId/versions/compare', readFlow, async (c) => {
        const flowId = id(c);
        const query = queryInput(c, versionCompareQuery);
        const side = (value: string) => (value === 'draft' ? ('draft' as const) : { versionId: value });
        const comparison = unwrap(
          await useCases.flowHistory.compare(c.var.actor, flowId, { from: side(query.from), to: side(query.to) }),
        );
        return sendOne(c, 'VersionComparison', presentComparison(comparison));
      })
      .get('/flows/:flowId/versions/:versionId', readFlow, async (c) => {
        const version = unwrap(await useCases.flowHistory.get(c.var.actor, id(c), versionId(c)));
        return sendOne(c, 'FlowVersionDetail', presentVersionDetail(version));
      })
      .post('/flows/:flowId/versions/:versionId/restore', manageFlow, async (c) => {
        const flowId = id(c);
        return sendFlow(c, unwrap(await useCases.draftReset.restore(c.var.actor, flowId, versionId(c), ifMatch(c))));
      })
      .delete('/flows/:flowId/draft', manageFlow, async (c) =>
        sendFlow(c, unwrap(await useCases.draftReset.discard(c.var.actor, id(c), ifMatch(c)))),
      )
      .post('/flows/:flowId/duplicate', async (c) =>
        sendOne(c, 'Flow', present.flow(unwrap(await useCases.duplicateFlow(c.var.actor, id(c)))), 201),
      )
      .post('/flows/:flowId/export', async (c) =>
        sendOne(c, 'Object', unwrap(await useCases.exportFlow(c.var.actor, id(c))), 201),
      )
      .get('/flows/:flowId/folder', async (c) =>
        sendOne(c, 'Folder', presentFolder(unwrap(await useCases.getFlowFolder(c.var.actor, id(c))))),
      )
      .patch('/flows/:flowId/folder', manageFlow, async (c) => {
        const flowId = id(c);
        const input = await jsonBody(c, flowFolderSchema);
        return sendOne(c, 'Flow', present.flow(unwrap(await useCases.updateFlowFolder(c.var.actor, flowId, input))));
      })
      .post('/flows/:flowId/steps', manageFlow, async (c) => {
        const flowId = id(c);
        const input = await jsonBody(c, createStepSchema);
        const created = unwrap(await useCases.createStep(c.var.actor, flowId, input, ifMatch(c)));
        tagRevision(c, created.draftRevision);
        return sendOne(c, 'Step', present.step(created.value), 201);
      })
  );
};

/** Flows that use an app or a connection, as the apps and connections routes list them. */
export const flowsUsing = (deps: HttpDeps) => {
  const present = flowPresenters(deps.settings.publicUrl);
  return {
    app: async (c: Context<AppEnv>) => {
      const page = unwrap(
        await deps.useCases.listFlowsUsingApp(c.var.actor, c.req.param('appKey') ?? '', pageQuery(c)),
      );
      return sendPage(c, 'Flow', page, present.flow);
    },
    connection: async (c: Context<AppEnv>) => {
      const connectionId = idParam(c, 'connectionId', 'Connection');
      const page = unwrap(await deps.useCases.listFlowsUsingConnection(c.var.actor, connectionId, pageQuery(c)));
      return sendPage(c, 'Flow', page, present.flow);
    },
  };
};
