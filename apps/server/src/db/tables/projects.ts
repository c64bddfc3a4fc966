import type { Generated } from 'kysely';
import type { Bool, Id } from '../schema.ts';
import type { VideoStyleColumns } from './video-style.ts';

export interface ProjectsTable extends VideoStyleColumns {
  id: Id;
  user_id: number;
  name: string;
  /** Storage key of the product/reference image (`users/<uid>/projects/<uuid>.<ext>`), or null. */
  file_key: string | null;
  script: string;
  language: string;
  accent: string;
  /** Who speaks the script: 'generated' or 'own' (contracts VoiceSource). */
  voice_source: Generated<string>;
  /** Storage key of the user's own recording, or null for none. */
  voice_over_key: string | null;
  /** The recording's length in seconds (ffprobe at upload), null without one. */
  voice_over_duration_sec: number | null;
  /** The product image the cut-out check below is about; the check is void for any other (decision 214). */
  cutout_file_key: Generated<string | null>;
  /** The cut-out check's verdict (contracts CutoutVerdict), null until the cut-out is made. */
  cutout_verdict: Generated<string | null>;
  /** JSON { fixed: string[], reasons: string[] } of the cut-out check. */
  cutout_notes: Generated<string | null>;
  /** When the user chose to use a needs-review cut-out as it is; null otherwise. */
  cutout_accepted_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export type MergeStatus = 'not_merged' | 'merging' | 'merged' | 'failed';

/** The actors chosen for a project, with where the product goes in each one and the merge state. */
export interface ProjectCharactersTable {
  id: Id;
  project_id: number;
  avatar_id: number;
  selected: Bool;
  /** Placement box in the 576x1024 frame; seeded from the avatar's saved bounds when the actor is selected. */
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  rotation: number;
  /** JSON MaskPlacement of the last merge request (position_x, position_y, scale, rotation), or null. */
  mask_placement: string | null;
  merge_status: MergeStatus | null;
  merged_key: string | null;
  merge_job_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The avatar library: the 12 catalogue actors, admin uploads, and (later) per-user avatars. */
export interface AvatarsTable {
  id: Id;
  /** Null for the shared library (catalogue actors and admin uploads); a user id for a private avatar. */
  owner_user_id: number | null;
  /** Who uploaded it (audit only); null for catalogue actors. */
  created_by_user_id: number | null;
  image_key: string;
  prompt: string | null;
  name: string | null;
  /** '1'..'12' for the hard-coded actor catalogue; unique, which makes seeding idempotent. */
  catalogue_actor_id: string | null;
  gender: string | null;
  race: string | null;
  background: string | null;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  rotation: number;
  /** JSON [x1,y1,x2,y2,x3,y3,x4,y4] of the rotated bounds, or null. */
  corners: string | null;
  /** When the uploader confirmed they have the pictured person's consent (uploaded photos); null for catalogue actors. */
  consent_confirmed_at: string | null;
  consent_by_user_id: number | null;
  /** What the pictured person agreed to, in the uploader's words (own creators, decision 202); null otherwise. */
  consent_text: Generated<string | null>;
  /** The photo's face analysis (PhotoFace JSON, decision 190); null for drawn actors and older uploads. */
  face_json: string | null;
  /** Catalogue actors are tombstoned rather than removed, so the boot-time seeder does not bring them back. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's once-per-actor upgrades of an actor (decision 216): one row per user and avatar. */
export interface ActorLooksTable {
  id: Id;
  user_id: number;
  avatar_id: number;
  /** The photoreal still of a catalogue actor made for this user (a file key), or null. */
  photo_key: string | null;
  /** The images request it was made by (MediaPort.catalogueActorPhotoTag); a new request makes a new still. */
  photo_tag: string | null;
  /** The face found on that still (PhotoFace JSON), as an avatar's `face_json`. */
  face_json: string | null;
  /** Real mouth stills: JSON {source_key, stills: {shape: key}}, the photo they were made from and each still. */
  mouths_json: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectTables {
  projects: ProjectsTable;
  project_characters: ProjectCharactersTable;
  avatars: AvatarsTable;
  actor_looks: ActorLooksTable;
}
