import type { Generated } from 'kysely';
import type { Bool, Id } from '../schema.ts';
import type { VideoStyleColumns } from './video-style.ts';

/** A hook pack: one product, its hook message and the characters that will say it (docs/product.md#hook-packs). */
export interface HookPacksTable extends VideoStyleColumns {
  id: Id;
  user_id: number;
  name: string | null;
  language: string;
  accent: string;
  /** The user's hook text (the wizard's Hook Message step). */
  message: string | null;
  product_details: string | null;
  /** Sanitised upload: `users/<uid>/hook-packs/<uuid>.<ext>`. */
  product_key: string | null;
  /** Product with the background removed (PNG with alpha), written by the process-product job. */
  cutout_key: string | null;
  /** Alpha mask of the cut-out product. */
  mask_key: string | null;
  detected_shape: string | null;
  detected_category: string | null;
  /** The cut-out check's verdict (contracts CutoutVerdict), null until the cut-out is made (decision 214). */
  cutout_verdict: Generated<string | null>;
  /** JSON { fixed: string[], reasons: string[] } of the cut-out check. */
  cutout_notes: Generated<string | null>;
  /** When the user chose to use a needs-review cut-out as it is; null otherwise. */
  cutout_accepted_at: Generated<string | null>;
  status: string;
  /** Random per-pack part of the output prefix, so video URLs (capability links) cannot be guessed. */
  file_token: string;
  created_at: string;
  updated_at: string;
}

export interface CharacterTypesTable {
  id: Id;
  hook_pack_id: number;
  description: string;
  order_index: number;
  created_at: string;
}

export type GeneratedCharacterStatus = 'pending' | 'ready' | 'failed';

export interface GeneratedCharactersTable {
  id: Id;
  hook_pack_id: number;
  /** Null for 'Generate More' characters made from a free description. */
  character_type_id: number | null;
  /** Procedural actor seed: the description plus an index, so the same description gives the same people. */
  seed: string;
  /** The description the character was made from. */
  prompt: string;
  /** Null until the generate-characters job has rendered the portrait. */
  image_key: string | null;
  selected: Bool;
  status: GeneratedCharacterStatus;
  job_id: number | null;
  created_at: string;
  updated_at: string;
  /** One of the owner's own creators (decision 207): its photo is the character; null for a drawn character. */
  avatar_id: number | null;
}

export interface PreviewCharactersTable {
  id: Id;
  hook_pack_id: number;
  generated_character_id: number;
  /** The composite (character holding the product); null while pending. */
  image_key: string | null;
  errors: string | null;
  approved: Bool;
  /** Null only in rows written before decision 198; read as pending (or accepted when approved). */
  status: 'pending' | 'accepted' | 'rejected' | null;
  /** Placement of the product in the 576x1024 frame. */
  position_x: number | null;
  position_y: number | null;
  scale: number | null;
  rotation: number | null;
  /** The editor's mask.png, when the placement came from the editor. */
  mask_key: string | null;
  job_id: number | null;
  created_at: string;
  updated_at: string;
}

/** One video of the pack: which character says which hook line, and the job rendering it. */
export interface HookVariantsTable {
  id: Id;
  hook_pack_id: number;
  variant_index: number;
  generated_character_id: number;
  hook_text: string;
  /** The video's matrix cell, 'H2-A1-C3' (hook, actor, call to action); null for videos made before it. */
  variant_id: string | null;
  /** This video's own call to action (a matrix column); null: the pack's. */
  cta_text: string | null;
  job_id: number | null;
  created_at: string;
}

export interface HookPackTables {
  hook_packs: HookPacksTable;
  character_types: CharacterTypesTable;
  generated_characters: GeneratedCharactersTable;
  preview_characters: PreviewCharactersTable;
  hook_variants: HookVariantsTable;
}
