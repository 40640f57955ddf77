export { adminOnly, authorize, type Scope, scopeOf } from './authorize.js';
export {
  ALL_PERMISSIONS,
  isInCatalog,
  type ListedPermission,
  listedPermissions,
  PERMISSION_CATALOG,
} from './catalog.js';
export { ownAccountOnly } from './own-account.js';
