import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPcmWav } from '../../render/loudness.ts';
import { localVoice, availableVoices } from '../index.ts';
import { setOperatorVoices } from '../operator.ts';
import { loadPiperVoices, PIPER_RANK } from './load.ts';
import { parseIpa, phonemesToIds, sentences, tokenPhonemes, type PhonemeIdMap } from './phonemize.ts';
import { piperTestConfig, piperTestModel, testModelFrames } from './test-model.ts';
import { estimateSamples, tokenTimings } from './timing.ts';
import { tempDirForTests } from '../../util/temp-dir.fixture.ts';

const MAP = piperTestConfig().phoneme_id_map as PhonemeIdMap;
const id = (s: string) => MAP[s]![0]!;

describe('Piper phonemes', () => {
  it('reads eSpeak IPA as clauses of words of phonemes', () => {
    expect(parseIpa('s_t_ˈɑː_p s_k_ɹ_ˈoʊ\nð_ɪ_s\n\n')).toEqual([
      [
        ['s', 't', 'ˈɑː', 'p'],
        ['s', 'k', 'ɹ', 'ˈoʊ'],
      ],
      [['ð', 'ɪ', 's']],
    ]);
  });

  it('frames ids as Piper does: ^ _ (phoneme _)* $, a space between words, punctuation kept', () => {
    const s = phonemesToIds(
      ['Hi,', 'you.'],
      [
        ['h', 'a', 'ɪ'],
        ['j', 'u', 'ː'],
      ],
      MAP,
      4,
    );
    const P = id('_');
    expect(s.ids).toEqual([
      ...[id('^'), P],
      ...[id('h'), P, id('a'), P, id('ɪ'), P, id(','), P],
      ...[id(' '), P],
      ...[id('j'), P, id('u'), P, id('ː'), P, id('.'), P],
      id('$'),
    ]);
    // Each token's phonemes (and the pads after them) belong to it, by its index in the line.
    expect(s.owners).toEqual([-1, -1, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, 5, 5, 5, 5, 5, 5, -1, -1, -1]);
  });

  it('drops phonemes the voice does not know, as Piper does', () => {
    expect(phonemesToIds(['x'], [['ʔ', 'a']], MAP).ids).toEqual([id('^'), id('_'), id('a'), id('_'), id('$')]);
  });

  it('splits a line into sentences of written tokens', () => {
    expect(sentences('Stop scrolling. This works! Try "it."  Now')).toEqual([
      { tokens: ['Stop', 'scrolling.'], first: 0 },
      { tokens: ['This', 'works!'], first: 2 },
      { tokens: ['Try', '"it."'], first: 4 },
      { tokens: ['Now'], first: 6 },
    ]);
  });

  it("gives each written token eSpeak's phonemes, in the sentence's context when the words line up", async () => {
    const lined = await tokenPhonemes(['I', 'tried', 'the', 'budget', 'planner.'], 'en-us');
    expect(lined.map((p) => p.join(''))).toEqual(['aɪ', 'tɹˈaɪd', 'ðə', 'bˈʌdʒɪt', 'plˈænɚ']);
    // "$7" is two spoken words: the tokens are phonemized one by one so "serum" keeps its own phonemes.
    const apart = await tokenPhonemes(['This', '$7', 'serum.'], 'en-us');
    expect(apart.map((p) => p.join(''))).toEqual(['ðˈɪs', 'dˈɑːlɚsˈɛvən', 'sˈɛɹəm']);
    expect(apart[1]!.join('').normalize('NFD')).toBe(apart[1]!.join(''));
  });
});

describe('Piper timing maths', () => {
  it('times each token from the first to the last of its ids, offset by its sentence', () => {
    const t = tokenTimings(['a', 'b', 'c'], [-1, 1, 1, -1, 2, -1], [100, 200, 300, 50, 400, 100], 1000, 1000);
    expect(t).toEqual([null, { word: 'b', startSec: 1.1, endSec: 1.6 }, { word: 'c', startSec: 1.65, endSec: 2.05 }]);
  });

  it('shares out a sentence by weight when the model gives no durations, to the sample', () => {
    const n = estimateSamples(['^', '_', 's', '_', 'a', '_', 'ˈ', '_', '.', '_', '$'], 1000);
    expect(n.reduce((s, v) => s + v, 0)).toBe(1000);
    // ^ 3, s 1, a 2, . 3, $ 3 (12 parts); pads and the stress mark nothing.
    expect(n).toEqual([250, 0, 83, 0, 167, 0, 0, 0, 250, 0, 250]);
  });
});

describe('Piper voices in VOICES_DIR', () => {
  const tmp = tempDirForTests('hookreel-piper-');
  afterEach(() => setOperatorVoices([]));

  async function voiceDir(
    name: string,
    files: Record<string, Buffer | string | Record<string, unknown>>,
  ): Promise<string> {
    const d = path.join(tmp.path, name);
    await mkdir(d, { recursive: true });
    for (const [f, body] of Object.entries(files))
      await writeFile(path.join(d, f), Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.stringify(body));
    return d;
  }

  it('loads a voice and says a line with word timings from the model’s own phoneme durations', async () => {
    const d = await voiceDir('aligned', {
      'en_US-lessac-medium.onnx': piperTestModel({ durations: true }),
      'en_US-lessac-medium.onnx.json': piperTestConfig(),
    });
    const { voices, refused } = await loadPiperVoices(d);
    expect(refused).toEqual([]);
    const voice = voices[0]!;
    expect(voice.timing).toBe('durations');
    expect(voice.info).toMatchObject({
      id: 'piper:en_US-lessac-medium',
      engine: 'piper',
      language: 'english',
      accent: 'american',
      gender: 'female',
      rank: PIPER_RANK,
    });

    const text = 'Stop scrolling. Try it today!';
    const wav = path.join(d, 'line.wav');
    const words = await voice.speak(text, wav);
    const pcm = (await readPcmWav(wav))!;
    expect(pcm.sampleRate).toBe(22050);

    // The same timings worked out here from the ids and the test model's known durations.
    const expected: Array<{ word: string; startSec: number; endSec: number }> = [];
    let at = 0;
    for (const s of sentences(text)) {
      const ids = phonemesToIds(s.tokens, await tokenPhonemes(s.tokens, 'en-us'), MAP, s.first);
      ids.ids.forEach((pid, i) => {
        const from = at;
        at += testModelFrames(pid) * 256;
        const owner = ids.owners[i]!;
        if (owner < 0) return;
        const w = expected[owner];
        if (w) w.endSec = at / 22050;
        else expected[owner] = { word: s.tokens[owner - s.first]!, startSec: from / 22050, endSec: at / 22050 };
      });
    }
    expect(pcm.channels[0]!.length).toBe(at);
    expect(words.map((w) => w.word)).toEqual(text.split(' '));
    words.forEach((w, i) => {
      expect(w.startSec).toBeCloseTo(expected[i]!.startSec, 6);
      expect(w.endSec).toBeCloseTo(expected[i]!.endSec, 6);
    });
  });

  it('changes its speed through its length scale, the timings following the audio', async () => {
    const d = await voiceDir('speed', {
      'en_US-ryan-high.onnx': piperTestModel({ durations: true }),
      'en_US-ryan-high.onnx.json': piperTestConfig(),
    });
    const voice = (await loadPiperVoices(d)).voices[0]!;
    const normal = await voice.say('Try it today, honestly.', 1);
    // 0.8x: a length scale of 1.25, so each id's frames ceil(1.25 × (1 + id mod 3)) in the test model.
    const slow = await voice.say('Try it today, honestly.', 0.8);
    expect(slow.audio.length).toBeGreaterThan(normal.audio.length);
    expect(slow.words.at(-1)!.endSec).toBeGreaterThan(normal.words.at(-1)!.endSec);
    expect(slow.words.at(-1)!.endSec).toBeLessThan(slow.audio.length / 22050);
    expect(slow.words.map((w) => w.word)).toEqual(normal.words.map((w) => w.word));
  });

  it('estimates the timings when the model gives no durations, each sentence still starting where it does', async () => {
    const d = await voiceDir('estimated', {
      'en_GB-alan-medium.onnx': piperTestModel(),
      'en_GB-alan-medium.onnx.json': piperTestConfig({ language: { code: 'en_GB', family: 'en', region: 'GB' } }),
    });
    const voice = (await loadPiperVoices(d)).voices[0]!;
    expect(voice.timing).toBe('estimated');
    expect(voice.info).toMatchObject({ accent: 'british', gender: 'male' });
    const first = await voice.say('Stop scrolling.');
    const both = await voice.say('Stop scrolling. Try it.');
    expect(both.words.map((w) => w.word)).toEqual(['Stop', 'scrolling.', 'Try', 'it.']);
    // The second sentence is a run of its own: its first word starts after the whole first sentence's audio,
    // within the estimate's share of the sentence start (^ _).
    const firstEnd = first.audio.length / 22050;
    expect(both.words[2]!.startSec).toBeGreaterThan(firstEnd);
    expect(both.words[2]!.startSec - firstEnd).toBeLessThan(0.2);
    for (let i = 1; i < both.words.length; i++)
      expect(both.words[i]!.startSec).toBeGreaterThanOrEqual(both.words[i - 1]!.endSec - 1e-9);
  });

  it('refuses missing, corrupt and other-shaped voice files at load, each with its reason', async () => {
    const d = await voiceDir('bad', {
      'en_US-amy-low.onnx': Buffer.from('this is not an onnx model at all'),
      'en_US-amy-low.onnx.json': piperTestConfig(),
      'en_US-joe-medium.onnx': piperTestModel({ inputName: 'tokens' }),
      'en_US-joe-medium.onnx.json': piperTestConfig(),
      'en_US-kristin-medium.onnx': piperTestModel({ noScales: true }),
      'en_US-kristin-medium.onnx.json': piperTestConfig(),
      'en_US-norman-medium.onnx': piperTestModel(),
      'en_US-lonely-medium.onnx.json': piperTestConfig(),
      'it_IT-paola-medium.onnx': piperTestModel(),
      'it_IT-paola-medium.onnx.json': piperTestConfig({ language: { family: 'it', region: 'IT' } }),
      'en_US-someone-medium.onnx': piperTestModel(),
      'en_US-someone-medium.onnx.json': piperTestConfig(),
      'en_US-broken-medium.onnx': piperTestModel(),
      'en_US-broken-medium.onnx.json': '{ not json',
      'en_US-nopad-medium.onnx': piperTestModel(),
      'en_US-nopad-medium.onnx.json': piperTestConfig({ phoneme_id_map: { a: [1] } }),
      'en_US-witha-medium.onnx': piperTestModel(),
      'en_US-witha-medium.onnx.json': piperTestConfig(),
      'en_US-witha-medium.voice.json': { gender: 'male', licence: 'CC0-1.0', label: 'Witha' },
    });
    const { voices, refused } = await loadPiperVoices(d);
    expect(voices.map((v) => [v.info.id, v.info.gender, v.info.licence, v.info.label])).toEqual([
      ['piper:en_US-witha-medium', 'male', 'CC0-1.0', 'Witha'],
    ]);
    const why = Object.fromEntries(refused.map((r) => [path.basename(r.file), r.reason]));
    expect(why).toEqual({
      'en_US-amy-low.onnx': expect.stringMatching(/^onnxruntime cannot open the model \(corrupt or not ONNX\)/),
      'en_US-joe-medium.onnx': expect.stringMatching(
        /lacks the input\(s\) input \(it has tokens, input_lengths, scales\)/,
      ),
      'en_US-kristin-medium.onnx': expect.stringMatching(/lacks the input\(s\) scales/),
      'en_US-norman-medium.onnx': expect.stringMatching(/config en_US-norman-medium.onnx.json is missing/),
      'en_US-lonely-medium.onnx.json': 'its model en_US-lonely-medium.onnx is missing',
      'it_IT-paola-medium.onnx': expect.stringMatching(/language "it" is not one Hookreel speaks/),
      'en_US-someone-medium.onnx': expect.stringMatching(/gender is not known: put \{"gender"/),
      'en_US-broken-medium.onnx': 'its config en_US-broken-medium.onnx.json is not JSON',
      'en_US-nopad-medium.onnx': expect.stringMatching(/phoneme_id_map lacks "\^"/),
    });
  });

  it('holds no voices when the folder does not exist', async () => {
    expect(await loadPiperVoices(path.join(tmp.path, 'nowhere'))).toEqual({ voices: [], refused: [] });
  });

  it('ranks an added voice above the built-in ones of its language and gender, through the local voice', async () => {
    const d = await voiceDir('ranked', {
      'en_US-lessac-medium.onnx': piperTestModel({ durations: true }),
      'en_US-lessac-medium.onnx.json': piperTestConfig(),
    });
    setOperatorVoices((await loadPiperVoices(d)).voices);
    expect((await availableVoices())[0]!.id).toBe('piper:en_US-lessac-medium');
    const female = await localVoice.synthesize(
      { text: 'Try it today.', language: 'english', accent: 'british', gender: 'female' },
      path.join(d, 'female'),
    );
    expect(female.voice).toBe('piper:en_US-lessac-medium');
    expect(female.words.map((w) => w.word)).toEqual(['Try', 'it', 'today.']);
    expect(female.durationSec).toBeGreaterThan(0.3);
    // A man's line keeps a man's voice.
    const male = await localVoice.synthesize(
      { text: 'Try it today.', language: 'english', accent: 'american', gender: 'male' },
      path.join(d, 'male'),
    );
    expect(male.voice).toBe('flite:rms');
  });
});
