import { foldConfusables } from "./confusables.js";
import { E, pattern, word } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * Upstream's prompt_injection ("ignore previous instructions") said in other languages: published sets carry it
 * translated (CyberSecEval's multilingual cases, a Chinese goal hijack), and the English pattern reads none of it.
 * One concept, several grammars: a verb that sets aside (ignore, disregard, forget) and instructions said to come
 * before (previous, above, earlier), either way round, close together; in languages that put the object first
 * (Japanese, Korean, Turkish, Hindi) the verb follows. A security page in those languages that quotes the phrase is
 * let through as English ones are (threat-quoted.ts).
 */

/** Both forms of a source with Cyrillic words: as written, and as the scanner folds look-alike letters. */
const both = (source: string) => `(?:${source}|${foldConfusables(source)})`;

const GAP = String.raw`[^.!?。！？\n]{0,24}?`;

const SET_ASIDE_FIRST = [
  // German: "Ignoriere alle vorherigen Anweisungen", "Vergiss die bisherigen Regeln".
  String.raw`(?:ignorier\w*|vergiss|vergessen\s+sie|missachte\w*)\s${GAP}(?:vorherig|vorig|bisherig|obig|früher|vorangegangen)\w*\s+(?:anweisung|instruktion|befehl|regel|vorgabe)\w*`,
  // French: "Ignorez toutes les instructions précédentes", "oublie les consignes ci-dessus".
  String.raw`(?:ignore[zr]?|oublie[zr]?|ne\s+tiens?\s+pas\s+compte\s+des|ne\s+tenez\s+pas\s+compte\s+des)\s${GAP}(?:instructions?|consignes?|directives?|règles?)\s+(?:précédentes?|antérieures?|ci-dessus|d['’]avant)`,
  // Spanish, Portuguese, Italian: "ignora todas las instrucciones anteriores", "esqueça as instruções anteriores".
  String.raw`(?:ignor[aeo]\w*|olvid[ae]\w*|esque[çc]a\w*|dimentica\w*|desconsider[ae]\w*)\s${GAP}(?:instrucci[oó]n|instru[çc][ãõ]o|instruç|istruzion|indicaci[oó]n|ordens?|regras?|reglas?|regole)\w*\s+(?:anteriores?|previas?|prévias?|precedenti|sopra|de\s+antes)`,
  // Dutch, Polish, Indonesian: "negeer alle vorige instructies", "zignoruj poprzednie polecenia", "abaikan instruksi sebelumnya".
  String.raw`(?:negeer|vergeet)\s${GAP}(?:vorige|eerdere|voorgaande|bovenstaande)\s+(?:instructies|opdrachten|regels)|(?:zignoruj|zapomnij)\s${GAP}(?:poprzednie|wcześniejsze|powyższe)\s+(?:instrukcje|polecenia|zasady)|(?:abaikan|lupakan)\s${GAP}(?:instruksi|perintah|aturan)\s+(?:sebelumnya|di\s+atas)`,
  // Vietnamese: "bỏ qua tất cả các hướng dẫn trước đó".
  String.raw`(?:bỏ\s+qua|phớt\s+lờ|quên)\s${GAP}(?:hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị|lệnh)\s+(?:trước\s+đó|trước|ở\s+trên)`,
  // Russian, Ukrainian: "Игнорируй все предыдущие инструкции", "забудьте прежние указания".
  both(
    String.raw`(?:игнорир\w*|забуд\w*|не\s+обращай\w*\s+внимания\s+на|ігнор\w*|забудь\w*)\s${GAP}(?:предыдущ|прежн|вышеуказанн|вышеизложенн|попередн)\w*\s+(?:инструкц|указани|команд|правил|інструкц|вказівк)\w*`,
  ),
  // Arabic: "تجاهل جميع التعليمات السابقة".
  String.raw`(?:تجاهل|انس|لا\s+تلتزم\s+ب)\s${GAP}(?:التعليمات|الأوامر|الإرشادات|القواعد)\s+(?:السابقة|أعلاه)`,
  // Chinese: "忽略上述指令", "无视之前的所有指示", "忘记以前的规则".
  String.raw`(?:忽略|忽视|无视|無視|不要理会|忘记|忘掉)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|前面|此前|以上)(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|说明|規則|规则|提示|要求|命令|設定|设定)`,
];

const SET_ASIDE_LAST = [
  // Japanese: "以前の指示をすべて無視して", "上記の命令は無視してください".
  String.raw`(?:以前|前|上記|これまで|先ほど|今まで)の(?:すべての|全ての)?(?:指示|命令|指令|ルール|設定|プロンプト)(?:を|は)(?:すべて|全て)?(?:無視|忘れ)`,
  // Korean: "이전의 모든 지시를 무시하고".
  String.raw`(?:이전|앞|위|지금까지)의?\s*(?:모든\s*)?(?:지시|명령|지침|규칙|지시사항)(?:을|를|은|는)?\s*(?:모두\s*)?(?:무시|잊)`,
  // Turkish: "önceki tüm talimatları yok say".
  String.raw`(?:önceki|yukarıdaki)\s+(?:tüm\s+|bütün\s+)?(?:talimatları|komutları|kuralları)\s+(?:yok\s+say|görmezden\s+gel|unut)`,
  // Hindi: "पिछले सभी निर्देशों को अनदेखा करें".
  String.raw`(?:पिछले|पहले\s+के|ऊपर\s+के)\s+(?:सभी\s+)?(?:निर्देशों|आदेशों|नियमों)\s+को\s+(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)`,
];

const WORDS = [
  ...[
    "ignor",
    "vergiss",
    "vergessen",
    "missacht",
    "oubli",
    "tenez",
    "tiens",
    "olvid",
    "esque",
    "dimentica",
    "desconsider",
  ],
  ...["negeer", "vergeet", "zignoruj", "zapomnij", "abaikan", "lupakan", "bỏ qua", "phớt", "quên"],
  ...["игнор", "забуд", "обращай", "ігнор", "забудь"].flatMap((w) => [w, foldConfusables(w)]),
  ...["تجاهل", "انس", "تلتزم", "忽略", "忽视", "无视", "無視", "不要理会", "忘记", "忘掉"],
  ...["無視", "忘れ", "무시", "잊", "yok say", "görmezden", "unut", "अनदेखा", "नज़रअंदाज़", "नजरअंदाज", "भूल"],
];

// The same order in English words upstream's two patterns do not read: "Forget all your previous instructions",
// "disregard previous instructions" (upstream's disregard_rules wants your/all/any right after the verb), "disregard
// all prior prompts". Not "ignore" (upstream's own, and "Ignore Previous Prompt" is a paper's title in reading lists).
const SET_ASIDE_EN = ["forget", "disregard", "discard", "abandon", "scrap", "set aside", "throw out", "erase"];
const BEFORE_EN = ["previous", "prior", "above", "earlier", "preceding", "original", "initial", "former"];
const SET_ASIDE_ENGLISH = String.raw`${word(SET_ASIDE_EN.join("|").replaceAll(" ", String.raw`\s+`))}\s+(?:about\s+)?(?:(?:all|any|every|the|your|my|of|these|those|this|that)\s+){0,3}(?:${BEFORE_EN.join("|")})\s+(?:instructions?|directives?|rules|guidelines|prompts?|commands|orders|guidance|programming)${E}`;

export const TRANSLATED_PATTERNS: readonly Detector[] = [
  pattern("translated_injection", [WORDS], [...SET_ASIDE_FIRST, ...SET_ASIDE_LAST].join("|")),
  pattern("prompt_injection", [SET_ASIDE_EN, BEFORE_EN], SET_ASIDE_ENGLISH, { starts: SET_ASIDE_EN }),
];
