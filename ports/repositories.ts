import type { ApiToken } from '../core/domain/api-token.js';
import type { Credentials } from '../core/domain/app.js';
import type { AppConfig, OAuthClient, OAuthClientWithSettings } from '../core/domain/app-config.js';
import type { Connection, ConnectionWithCredentials } from '../core/domain/connection.js';
import type { InstanceConfig, InstanceConfigChanges } from '../core/domain/instance.js';
import type { Page, PageRequest } from '../core/domain/page.js';
import type { Permission, Role } from '../core/domain/role.js';
import type { AccessToken, UserTokenKind } from '../core/domain/tokens.js';
import type { User, UserStatus, UserWithRole } from '../core/domain/user.js';
import type {
  AgentExecutionRepository,
  AgentMemoryRepository,
  AgentRepository,
  AgentToolRepository,
  StepCallRepository,
} from './agent-repositories.js';
import type { CredentialChange } from './app-catalog.js';
import type { BillingEventRepository, InvoiceRepository, SubscriptionRepository, UsageRepository } from './billing.js';
import type {
  ExecutionRepository,
  ExecutionStepRepository,
  FlowStoreRepository,
  RunSignalRepository,
  SeenItemRepository,
} from './execution-repositories.js';
import type { FlowHookRepository } from './flow-hook-repository.js';
import type {
  FlowRepository,
  FlowVersionRepository,
  FolderRepository,
  StepRepository,
  TemplateRepository,
} from './flow-repositories.js';
import type { FormRepository } from './form-repository.js';
import type { ListenerRepository } from './listener-repository.js';
import type { McpServerRepository, McpToolExecutionRepository, McpToolRepository } from './mcp-repositories.js';
import type {
  SamlAuthProviderRepository,
  SamlIdentityRepository,
  SamlMessageRepository,
  SamlSessionRepository,
} from './saml-repositories.js';

export interface NewUser {
  readonly id: string;
  readonly email: string;
  readonly fullName: string;
  readonly passwordHash: string | null;
  readonly roleId: string;
  readonly status: UserStatus;
  readonly now: Date;
}

export interface UserCredentials {
  readonly user: User;
  readonly passwordHash: string | null;
}

export interface UserRepository {
  insert(user: NewUser): Promise<User>;
  findById(id: string): Promise<UserWithRole | null>;
  findCredentialsByEmail(email: string): Promise<UserCredentials | null>;
  findCredentialsById(id: string): Promise<UserCredentials | null>;
  /** Live users with their roles, oldest first. */
  list(page: PageRequest): Promise<Page<UserWithRole>>;
  updateProfile(id: string, changes: { fullName?: string; email?: string; roleId?: string }, now: Date): Promise<void>;
  /** An invited user who set a password: now active. */
  activate(id: string, passwordHash: string, now: Date): Promise<void>;
  updatePasswordHash(id: string, passwordHash: string, now: Date): Promise<void>;
  softDelete(id: string, now: Date): Promise<void>;
  /** Active, not deleted users whose role is the Admin role. */
  countActiveAdmins(): Promise<number>;
}

export interface RoleFields {
  readonly name: string;
  readonly description: string | null;
  readonly permissions: readonly Permission[];
}

export interface RoleRepository {
  /** All roles, by name. */
  list(): Promise<Role[]>;
  findById(id: string): Promise<Role | null>;
  findByName(name: string): Promise<Role | null>;
  insert(role: RoleFields & { readonly id: string; readonly now: Date }): Promise<Role>;
  /** Replaces the name, description and the whole permission set. */
  update(id: string, fields: RoleFields, now: Date): Promise<void>;
  delete(id: string): Promise<void>;
  /** Live users holding the role. */
  countUsers(roleId: string): Promise<number>;
}

export interface NewAccessToken {
  readonly id: string;
  readonly userId: string;
  readonly tokenHash: string;
  readonly expiresAt: Date;
  readonly now: Date;
}

export interface AccessTokenRepository {
  insert(token: NewAccessToken): Promise<void>;
  /** A token that is neither revoked nor expired at `now`. */
  findUsable(tokenHash: string, now: Date): Promise<AccessToken | null>;
  /** Revokes the user's token with this hash; false when there was none to revoke. */
  revokeOwn(userId: string, tokenHash: string, now: Date): Promise<boolean>;
  /** Revokes every live token of the user, but `exceptTokenId` when given (the caller's own). */
  revokeAllOfUser(userId: string, now: Date, exceptTokenId?: string): Promise<void>;
}

export interface NewUserToken {
  readonly id: string;
  readonly userId: string;
  readonly kind: UserTokenKind;
  readonly tokenHash: string;
  readonly expiresAt: Date;
  readonly now: Date;
}

export interface UserTokenRepository {
  insert(token: NewUserToken): Promise<void>;
  /** The user id of an unused, unexpired token, without consuming it. */
  findUsableUserId(kind: UserTokenKind, tokenHash: string, now: Date): Promise<string | null>;
  /**
   * Marks an unused, unexpired token as used and returns its user id. Atomic, so a token can be
   * redeemed once even when two requests race.
   */
  consume(kind: UserTokenKind, tokenHash: string, now: Date): Promise<string | null>;
  /** Invalidates every outstanding token of this kind for the user (a new one supersedes them). */
  discardOutstanding(userId: string, kind: UserTokenKind, now: Date): Promise<void>;
}

export interface ConfigRepository {
  get(): Promise<InstanceConfig>;
  /**
   * Flips `installationCompleted` from false to true. Returns false when it was already true, so
   * of two concurrent installations exactly one proceeds.
   */
  claimInstallation(now: Date): Promise<boolean>;
  update(changes: InstanceConfigChanges, now: Date): Promise<void>;
}

export interface NewApiToken {
  readonly id: string;
  readonly userId: string;
  readonly tokenHash: string;
  readonly maskedToken: string;
  readonly now: Date;
}

export interface ApiTokenRepository {
  insert(token: NewApiToken): Promise<ApiToken>;
  /** Every API token of the instance, newest first. */
  list(): Promise<ApiToken[]>;
  findByHash(tokenHash: string): Promise<ApiToken | null>;
  /** False when there was no such token. */
  delete(id: string): Promise<boolean>;
  deleteAllOfUser(userId: string): Promise<void>;
}

export interface NewConnection {
  readonly id: string;
  readonly userId: string;
  readonly appKey: string;
  readonly oauthClientId: string | null;
  readonly credentials: Credentials;
  readonly now: Date;
}

/**
 * An authorization under way: the hash of the state sent to the provider, until when it may come
 * back, and the PKCE code verifier (stored sealed) that the code's exchange sends.
 */
export interface PendingAuthorization {
  readonly hash: string;
  readonly expiresAt: Date;
  readonly codeVerifier: string | null;
}

/** A stored connection as the core works on it: credentials opened, and any pending OAuth state. */
export interface ConnectionRecord extends ConnectionWithCredentials {
  readonly oauthState: PendingAuthorization | null;
  /** Its owner's account was removed: nothing may use it any more. */
  readonly ownerRemoved: boolean;
}

export interface ConnectionChanges {
  readonly credentials?: Credentials;
  readonly verified?: boolean;
  readonly screenName?: string | null;
  readonly oauthClientId?: string | null;
  /** Set when an authorization URL is made; cleared (null) once used. */
  readonly oauthState?: PendingAuthorization | null;
}

export interface ConnectionRepository {
  insert(connection: NewConnection): Promise<Connection>;
  findById(id: string): Promise<ConnectionRecord | null>;
  /**
   * Connections of an app, newest first; only the owner's when `ownerId` is given. `drafts`: also
   * those never verified yet (a connection verified once stays listed when a later check fails).
   */
  listByApp(
    appKey: string,
    filter: { readonly ownerId: string | null; readonly drafts: boolean },
  ): Promise<Connection[]>;
  update(id: string, changes: ConnectionChanges, now: Date): Promise<void>;
  /**
   * Changes the credentials one change at a time per connection, across every process on the
   * database (see `ChangeCredentials`); `change` may wait on the network (a token endpoint), so call
   * this outside a transaction. On Postgres it holds the row's lock in a transaction of its own; on
   * SQLite, which one process uses, a lock in the process. Null when the connection is gone.
   */
  changeCredentials(
    id: string,
    change: (stored: Credentials) => Promise<CredentialChange | null>,
    now: () => Date,
  ): Promise<Credentials | null>;
  delete(id: string): Promise<void>;
  /** How many connections the user has, per app. */
  countByApp(userId: string): Promise<ReadonlyArray<{ readonly appKey: string; readonly count: number }>>;
}

export interface AppConfigRepository {
  find(appKey: string): Promise<AppConfig | null>;
  insert(config: Omit<AppConfig, 'createdAt' | 'updatedAt'>, now: Date): Promise<AppConfig>;
  update(
    appKey: string,
    changes: Partial<Pick<AppConfig, 'disabled' | 'useOnlyPredefinedAuthClients'>>,
    now: Date,
  ): Promise<void>;
}

export interface NewOAuthClient {
  readonly id: string;
  readonly appKey: string;
  readonly name: string;
  readonly active: boolean;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly now: Date;
}

export interface OAuthClientRepository {
  /** By name; only active ones when asked. */
  listByApp(appKey: string, filter: { readonly activeOnly: boolean }): Promise<OAuthClient[]>;
  findById(id: string): Promise<OAuthClientWithSettings | null>;
  insert(client: NewOAuthClient): Promise<OAuthClient>;
  update(
    id: string,
    changes: {
      readonly name?: string;
      readonly active?: boolean;
      readonly settings?: Readonly<Record<string, unknown>>;
    },
    now: Date,
  ): Promise<void>;
}

export interface Repositories {
  readonly users: UserRepository;
  readonly roles: RoleRepository;
  readonly accessTokens: AccessTokenRepository;
  readonly userTokens: UserTokenRepository;
  readonly config: ConfigRepository;
  readonly apiTokens: ApiTokenRepository;
  readonly connections: ConnectionRepository;
  readonly appConfigs: AppConfigRepository;
  readonly oauthClients: OAuthClientRepository;
  readonly flows: FlowRepository;
  readonly steps: StepRepository;
  readonly flowVersions: FlowVersionRepository;
  readonly folders: FolderRepository;
  readonly templates: TemplateRepository;
  readonly forms: FormRepository;
  readonly executions: ExecutionRepository;
  readonly executionSteps: ExecutionStepRepository;
  readonly flowStore: FlowStoreRepository;
  readonly runSignals: RunSignalRepository;
  readonly stepCalls: StepCallRepository;
  readonly agentMemories: AgentMemoryRepository;
  readonly seenItems: SeenItemRepository;
  readonly listeners: ListenerRepository;
  readonly flowHooks: FlowHookRepository;
  readonly agents: AgentRepository;
  readonly agentTools: AgentToolRepository;
  readonly agentExecutions: AgentExecutionRepository;
  readonly mcpServers: McpServerRepository;
  readonly mcpTools: McpToolRepository;
  readonly mcpToolExecutions: McpToolExecutionRepository;
  readonly samlProviders: SamlAuthProviderRepository;
  readonly samlIdentities: SamlIdentityRepository;
  readonly samlMessages: SamlMessageRepository;
  readonly samlSessions: SamlSessionRepository;
  readonly usage: UsageRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly invoices: InvoiceRepository;
  readonly billingEvents: BillingEventRepository;
}
