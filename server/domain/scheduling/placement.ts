/**
 * Whether one time range can take one more booking, and in which resource: the single rule behind
 * both the slots GET /availability offers and the check POST /appointments makes.
 */
import type { Diary, SessionType } from './diary';

export interface BookableType extends SessionType {
  requiresResource: boolean;
}

export interface Candidate {
  practitionerId: number;
  start: number;
  end: number;
  /** The resource of the working window the range lies in, if that window belongs to one. */
  windowResourceId: number | null;
}

export type Placement =
  | { ok: true; resourceId: number | null; placesLeft: number | null; sessionId: number | null }
  | { ok: false; reason: 'busy' | 'group_full' | 'resource_busy' };

/**
 * `resources` are the location's bookable resources in column order; `requested` is a resource the
 * booking names. The resource taken is the requested one, else the window's, else (when the type
 * needs one) the first free resource of the location.
 */
export function place(
  diary: Diary,
  type: BookableType,
  c: Candidate,
  resources: number[],
  requested: number | null = null,
): Placement {
  const state = diary.practitionerState(c.practitionerId, c.start, c.end, type);
  if (!state.free) return { ok: false, reason: state.inSession ? 'group_full' : 'busy' };
  const free = (r: number) => diary.resourceFree(r, c.start, c.end, type, c.practitionerId);
  let resourceId: number | null = null;
  if (requested != null) {
    if (!free(requested)) return { ok: false, reason: 'resource_busy' };
    resourceId = requested;
  } else if (c.windowResourceId != null && free(c.windowResourceId)) {
    resourceId = c.windowResourceId;
  } else if (type.requiresResource) {
    resourceId = resources.find(free) ?? null;
    if (resourceId == null) return { ok: false, reason: 'resource_busy' };
  }
  // Places left after this booking would be one fewer; report what is open now.
  return { ok: true, resourceId, placesLeft: state.placesLeft, sessionId: state.sessionId };
}
