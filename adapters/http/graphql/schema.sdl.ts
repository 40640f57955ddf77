/**
 * The GraphQL schema of API.md §7, in SDL. Every field answers what the REST route it names
 * answers, through the same use case; the object types are the REST presenters' JSON. Timestamps
 * (`createdAt`, `updatedAt`) stay `String`, as in Automatisch's schema: the presenters' milliseconds
 * since the epoch as decimal text ("1732269600000"), which is what Automatisch's `String` fields
 * made of a date and what its older web client parsed (`parseInt`).
 *
 * Inputs are optional at the argument level, as the specification lists them: a missing input is
 * a `ValidationError` on the field, not a document error.
 */
export const SCHEMA_SDL = /* GraphQL */ `
"""Any JSON value (step parameters)."""
scalar JSON

type Query {
  """The caller, with role and permissions (as GET /api/v1/users/me)."""
  currentUser: User
}

type Mutation {
  """Changes a step of a draft flow (as PATCH /api/v1/steps/:stepId)."""
  updateStep(input: UpdateStepInput): Step

  """Changes the caller's own name or e-mail (as PATCH /api/v1/users/:userId): own id only."""
  updateUser(input: UpdateUserInput): User

  """Checks a connection's credentials with its app (as POST /api/v1/connections/:connectionId/verify)."""
  verifyConnection(input: VerifyConnectionInput): Connection
}

"""A field left out keeps its value; null clears it."""
input UpdateStepInput {
  id: String!
  appKey: String
  key: String
  name: String
  connectionId: String
  parameters: JSON
}

input UpdateUserInput {
  id: String!
  fullName: String
  email: String
}

input VerifyConnectionInput {
  id: String!
}

enum StepType {
  trigger
  action
}

enum StepStatus {
  incomplete
  completed
}

"""Where a step sits in its flow's tree."""
enum StructuralType {
  single
  paths
  branch
  loop
}

type Step {
  id: String!
  flowId: String!
  type: StepType!
  appKey: String
  key: String
  name: String
  position: Int!
  status: StepStatus!
  parameters: JSON!
  connectionId: String
  appVersion: Int
  continueOnFailure: Boolean!
  structuralType: StructuralType!
  """The paths, branch or loop step it sits in; null at the top level."""
  parentStepId: String
  """A branch's conditions, [{and: [{key, operator, value}]}] (empty: the fallback); null for other steps."""
  branchConditions: JSON
  webhookUrl: String
  iconUrl: String
  createdAt: String!
  updatedAt: String!
}

enum UserStatus {
  active
  invited
}

type Permission {
  action: String!
  subject: String!
  conditions: [String!]!
}

type Role {
  id: String!
  name: String!
  description: String
  isAdmin: Boolean!
  createdAt: String!
  updatedAt: String!
}

type User {
  id: String!
  email: String!
  fullName: String!
  status: UserStatus!
  roleId: String!
  role: Role!
  permissions: [Permission!]!
  createdAt: String!
  updatedAt: String!
}

"""What a connection shows of its data: credentials never leave the server."""
type ConnectionFormattedData {
  screenName: String
}

type Connection {
  id: String!
  key: String!
  appAuthClientId: String
  formattedData: ConnectionFormattedData!
  verified: Boolean!
  createdAt: String!
  updatedAt: String!
}
`;
