/**
 * Shapes of the service's newer parts (docs/api.md §5, §6.1, §13), written by hand from the
 * contract because their schemas are not in src/ yet. TO BE REPLACED by imports of the service's
 * TypeBox schemas (as types.ts does) once src/users/ and src/prototypes/ export them: then a
 * change on either side is a type error, never a silent mismatch.
 */

/** `PATCH /prototypes/{prototype_id}` body (§5). */
export interface PrototypeRename {
  prototype_name: string;
}

/** §5: a sensor may carry a name, like an actuator; absent on services that predate it. */
export interface SensorNaming {
  sensor_name?: string | null;
}

/** Permission names of §6.1, as bodies may give them. */
export type PermissionName = 'post_measurements' | 'read' | 'modify' | 'admin' | 'control';

/** `GET /users` entry (§6.1). */
export interface UserSummary {
  username: string;
  permissions: number;
  created_at: string;
}

/** `POST /users` body (§6.1). */
export interface NewUser {
  username: string;
  password: string;
  permissions: number | PermissionName[];
}

/** `PATCH /users/{username}` body (§6.1). */
export interface UserPatch {
  permissions?: number | PermissionName[];
  password?: string;
}

/** `GET /users/{username}/tokens` entry: never the secret (§6.1). */
export interface DeviceToken {
  token_id: number | string;
  name: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

/** `POST /users/{username}/tokens` answer: the only time the secret is shown (§6.1). */
export interface CreatedDeviceToken {
  token_id: number | string;
  name: string;
  access_token: string;
  expires_at: string;
}

/** Fields of /ui/settings.json that the service adds with §6.1 and §13; absent on older services. */
export interface PendingSettings {
  /** Enforced mode and no user yet: the login page offers to create the first administrator. */
  needs_first_admin?: boolean;
}
