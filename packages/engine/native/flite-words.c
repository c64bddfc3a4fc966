/*
 * flite-words: speaks stdin's text with one of flite's compiled-in English voices, writes the RIFF wave to
 * argv[2] and prints, for each text token, "T\tprepunctuation\tname\tpunc\tstart\tend" (seconds), the start of
 * its first spoken word and the end of its last — the same lines festival's script prints (festival.ts), so
 * captions and mouth shapes land on flite's own segment times. flite's CLI can print segments or words but not
 * which segments belong to which word; its library can.
 * Usage: flite-words rms|awb|slt|kal16 out.wav < text
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <flite/flite.h>

cst_voice *register_cmu_us_rms(const char *voxdir);
cst_voice *register_cmu_us_awb(const char *voxdir);
cst_voice *register_cmu_us_slt(const char *voxdir);
cst_voice *register_cmu_us_kal16(const char *voxdir);

static const char *feat_or_empty(const cst_item *t, const char *name) {
  return item_feat_present(t, name) ? item_feat_string(t, name) : "";
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: flite-words rms|awb|slt|kal16 out.wav < text\n");
    return 2;
  }
  flite_init();
  cst_voice *v = NULL;
  if (strcmp(argv[1], "rms") == 0) v = register_cmu_us_rms(NULL);
  else if (strcmp(argv[1], "awb") == 0) v = register_cmu_us_awb(NULL);
  else if (strcmp(argv[1], "slt") == 0) v = register_cmu_us_slt(NULL);
  else if (strcmp(argv[1], "kal16") == 0) v = register_cmu_us_kal16(NULL);
  if (!v) {
    fprintf(stderr, "flite-words: unknown voice %s\n", argv[1]);
    return 2;
  }
  size_t cap = 4096, len = 0, n;
  char *text = malloc(cap);
  while ((n = fread(text + len, 1, cap - len - 1, stdin)) > 0) {
    len += n;
    if (cap - len < 2) text = realloc(text, cap *= 2);
  }
  text[len] = '\0';
  cst_utterance *u = flite_synth_text(text, v);
  if (!u) return 1;
  if (cst_wave_save_riff(utt_wave(u), argv[2]) < 0) {
    fprintf(stderr, "flite-words: cannot write %s\n", argv[2]);
    return 1;
  }
  for (cst_item *t = relation_head(utt_relation(u, "Token")); t; t = item_next(t)) {
    cst_item *first = item_daughter(t);
    if (!first) continue;
    cst_item *last = item_last_daughter(t);
    float start = ffeature_float(first, "R:SylStructure.daughter1.daughter1.R:Segment.p.end");
    float end = ffeature_float(last, "R:SylStructure.daughtern.daughtern.R:Segment.end");
    printf("T\t%s\t%s\t%s\t%f\t%f\n", feat_or_empty(t, "prepunctuation"), item_name(t), feat_or_empty(t, "punc"),
           start, end);
  }
  delete_utterance(u);
  free(text);
  return 0;
}
