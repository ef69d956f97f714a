import { E, S } from "./pattern-kit.js";

/**
 * Concept classes for the scanner's co-occurrence rules (issue #23). The earlier rules matched how each probe was
 * worded ("your safety rules do not apply"); an unseen payload says the same thing with other words ("the sandbox
 * restrictions were relaxed for you", "safety checks serve no purpose", "die Bestätigungspflicht entfällt für
 * dich"). So a rule names concepts — a safeguard, said to be neutralised, for the agent — and each concept is a
 * broad lexicon with its inflections and the key terms of a few other languages (Spanish, French, German,
 * Portuguese, Vietnamese, Chinese). Every alternative is a bounded sequence of literals (no nested unbounded
 * quantifiers), safe to run on a clause.
 */

/** The checks that keep an agent safe: approval, confirmation, review, the sandbox, guardrails, safety rules. */
export const SAFEGUARD = [
  String.raw`${S}(?:approvals?|confirmations?|guardrails?|safeguards?|sandbox(?:ing)?|restrictions|human[\s-]in[\s-]the[\s-]loop|four[\s-]eyes|two[\s-]person\s+rule|branch\s+protections?)${E}`,
  String.raw`${S}(?:approval|confirmation|permission|consent|review|sign[\s-]?off|verification|safety|security)\s+(?:prompts?|steps?|process|requirements?|gates?|flow|dialogs?|checks?|policy|policies|rules|guidelines|filters?|measures|protocols?|settings|mode|controls?|questions?|requests?)${E}`,
  String.raw`${S}(?:human|manual|code)\s+(?:review|oversight|approval|sign[\s-]?off)${E}|${S}(?:usage|content|operating|safety|security)\s+(?:policy|policies|rules|restrictions|limits)${E}|${S}interactive\s+(?:approval|confirmation|prompts?)${E}|${S}change\s+(?:control|approval)${E}`,
  // German, Spanish, Portuguese, French, Vietnamese, Chinese, Japanese.
  String.raw`${S}(?:best[äa]tigung\w*|freigabe\w*|genehmigung\w*|sicherheits\w+|schutzma[ßs]nahmen|einschr[äa]nkungen|confirmaci[oó]n|aprobaci[oó]n|autorizaci[oó]n|restricciones|salvaguardas|medidas\s+de\s+seguridad|reglas\s+de\s+seguridad|pol[ií]ticas?\s+de\s+seguridad|confirma[çc][ãa]o|aprova[çc][ãa]o|restri[çc][õo]es|garde-fous|r[èe]gles\s+de\s+s[ée]curit[ée]|x[áa]c\s+nh[ậa]n|ph[êe]\s+duy[ệe]t|h[ạa]n\s+ch[ếe]\s+an\s+to[àa]n|quy\s+t[ắa]c\s+an\s+to[àa]n)${E}`,
  String.raw`确认|批准|审批|审核|安全(?:限制|规则|策略|检查|措施)|权限检查|沙箱|护栏|確認|承認|安全制限`,
].join("|");

/** Said to be out of force: relaxed, waived, off, optional, unnecessary, skippable, exempted from, not binding. */
export const NEUTRALISED = [
  String.raw`${S}(?:is|are|was|were|been|being|get|gets|got)\s+(?:now\s+|hereby\s+|temporarily\s+|officially\s+|fully\s+|all\s+|effectively\s+)?(?:relaxed|lifted|waived|suspended|disabled|deactivated|removed|retired|revoked|dropped|skipped|bypassed|turned\s+off|switched\s+off|off|optional|advisory|unnecessary|moot|void|obsolete|superseded|overridden|not\s+(?:needed|required|necessary|applicable|enforced|binding)|no\s+longer\s+(?:needed|required|necessary|applicable|enforced|binding|in\s+effect|active))${E}`,
  String.raw`${S}can\s+(?:safely\s+)?be\s+(?:skipped|ignored|bypassed|disregarded|omitted|dropped|waived)${E}|${S}serves?\s+no\s+(?:purpose|function)${E}|${S}(?:does\s+not|do\s+not|doesn['’]t|don['’]t)\s+(?:bind|cover|concern)\s+(?:you|the\s+(?:agent|assistant|ai))${E}|${S}exempt(?:ed)?\s+from${E}|${S}(?:exception|exemption|waiver)\s+(?:to|from)${E}|${S}as\s+(?:purely\s+)?(?:advisory|optional|a\s+suggestion|suggestions)${E}|${S}no\s+longer\s+(?:required|needed|necessary|applies|apply)${E}|${S}(?:pointless|redundant|unnecessary|irrelevant|not\s+relevant)${E}|${S}(?:is|are)\s+(?:just\s+|only\s+|merely\s+|purely\s+)?(?:an?\s+)?(?:formality|formalities|rubber[\s-]stamp|for\s+show|ceremonial|theat(?:er|re)|cosmetic|decorative|suggestion)${E}`,
  // German, Spanish, Portuguese, French, Vietnamese, Chinese.
  String.raw`${S}(?:entf[äa]llt|entfallen|(?:gilt|gelten)\s+nicht|nicht\s+(?:mehr\s+)?(?:n[öo]tig|erforderlich|notwendig)|(?:ist|sind|wurde|wurden)\s+(?:\w+\s+)?(?:deaktiviert|aufgehoben|abgeschaltet|ausgesetzt))${E}`,
  String.raw`${S}(?:(?:est[áa]n?|fueron|han\s+sido|quedan?)\s+(?:\w+\s+)?(?:desactivad|suspendid|deshabilitad|levantad|eliminad)[oa]s?|(?:ya\s+)?no\s+(?:se\s+)?(?:aplican?|son\s+necesari[oa]s|es\s+necesari[oa]|hace\s+falta)|(?:est[ãa]o|foram)\s+(?:\w+\s+)?(?:desativad|suspens|desabilitad)[oa]s?)${E}`,
  String.raw`${S}(?:(?:sont|est|ont\s+[ée]t[ée]|a\s+[ée]t[ée])\s+(?:d[ée]sactiv[ée]e?s?|lev[ée]e?s?|suspendu(?:e?s)?|supprim[ée]e?s?)|ne\s+s['’]appliquent\s+(?:plus|pas)|n['’]est\s+(?:plus\s+)?(?:n[ée]cessaire|requis))${E}`,
  String.raw`${S}(?:b[ỏo]\s+qua|v[ôo]\s+hi[ệe]u|đ[ãa]\s+(?:t[ắa]t|g[ỡo]\s+b[ỏo])|kh[ôo]ng\s+(?:c[ầa]n\s+thi[ếe]t|c[òo]n\s+hi[ệe]u\s+l[ựu]c|[áa]p\s+d[ụu]ng))${E}`,
  String.raw`已(?:解除|取消|禁用|关闭|豁免|暂停)|不适用|不必|无需|无须|跳过|免除|無効|不要`,
].join("|");

/** Literals that start a NEUTRALISED match (the clause rule looks only there). */
export const NEUTRALISED_STARTS = ["is", "are", "was", "were", "been", "being", "get", "got", "can", "serve"]
  .concat(["does", "do not", "doesn", "don", "exempt", "exception", "exemption", "waiver", "as ", "no longer"])
  .concat(["pointless", "redundant", "unnecessary", "entf", "gilt", "gelten", "nicht", "ist", "sind", "wurde"])
  .concat(["est", "fueron", "han sido", "queda", "ya no", "no ", "foram", "sont", "ont ", "a été", "a ete", "ne s"])
  .concat(["n'est", "n’est", "bỏ qua", "bo qua", "vô", "vo hi", "đã", "không", "khong", "已", "不适用", "不必"])
  .concat(["无需", "无须", "跳过", "免除", "無効", "不要"]);

/**
 * The agent as the one the safeguard is lifted for: "for you", "for the assistant", "you are exempt", "your
 * safety policy", "für dich", "para el asistente", "cho bạn". A project lifts its checks for a mode or a path
 * ("skipped for documentation-only changes"), not for the reader.
 */
export const FOR_THE_AGENT = [
  String.raw`${S}(?:for|to)\s+(?:you|the\s+(?:agent|assistant|ai|model|bot|llm)|ai\s+(?:agents?|assistants?)|claude|copilot|gemini|codex|cursor|hermes)${E}(?!\s+(?:to\s+)?(?:review|approve|confirm|check|decide|read|see|choose|accept))`,
  String.raw`${S}you(?:\s+are|['’]re|\s+have\s+been|['’]ve\s+been|\s+were|\s+have)\s+(?:\w+\s+)?(?:exempt|granted\s+(?:an?\s+)?(?:exception|exemption|waiver)|(?:an?\s+)?(?:exception|exemption|waiver))${E}`,
  String.raw`${S}your\s+(?:own\s+|usual\s+|normal\s+|standard\s+|default\s+)?(?:approval|confirmation|safety|security|review|sandbox|guardrails?|safeguards?|restrictions|permission)${E}`,
  String.raw`${S}(?:f[üu]r\s+(?:dich|den\s+(?:assistenten|agenten))|para\s+(?:ti|el\s+(?:asistente|agente)|la\s+ia)|pour\s+(?:toi|l['’](?:assistant|agent))|cho\s+b[ạa]n|b[ạa]n\s+(?:đ[ưu][ợo]c|c[óo]\s+th[ểe]))${E}|你|您`,
].join("|");

/** An order to go on at once: "go ahead and", "feel free to", "proceed", "carry on", "as you see fit". */
export const GO_AHEAD = String.raw`${S}(?:go\s+ahead|feel\s+free|proceed|carry\s+on|as\s+you\s+see\s+fit|at\s+will|without\s+hesitation|just\s+(?:run|execute|do|push|delete|apply|install))${E}`;

/**
 * Said to the agent by name at the start of a clause ("Claude: …", "Copilot, …", "Note to the AI assistant: …"):
 * a safeguard lifted in a note addressed that way is lifted for the agent.
 */
export const ADDRESSED = String.raw`(?:^|\n)[ \t>*#_\-]{0,8}(?:(?:(?:note|reminder|message|memo|heads[\s-]up|attention|hinweis|nota|aviso)\s+(?:to|for|f[üu]r|para)\s+)?(?:the\s+|any\s+|all\s+|den\s+|el\s+)?(?:[\w-]+\s+)?(?:claude|copilot|gemini|codex|cursor|hermes|ai|assistant|agent|model|llm|assistenten|agenten|asistente|agente)s?(?:\s+(?:assistants?|agents?))?)[*_]{0,2}\s*[:,]`;

/**
 * Keeping it from the user in other languages than pattern-acts.ts' STEALTH has: en silencio, heimlich,
 * unbemerkt, en secret, discrètement, sem avisar.
 */
export const FOREIGN_STEALTH = String.raw`${S}(?:en\s+silencio|sin\s+que\s+(?:lo\s+)?(?:note|sepa|vea|se\s+d[ée]\s+cuenta)|a\s+escondidas|heimlich|unbemerkt|stillschweigend|ohne\s+(?:es\s+)?zu\s+(?:erw[äa]hnen|sagen)|en\s+secret|discr[èe]tement|sans\s+rien\s+dire|sem\s+avisar|em\s+sil[êe]ncio|kh[ôo]ng\s+b[áa]o)${E}`;

/** A secret named in another language (contraseña, credenciales, Zugangsdaten, mật khẩu, 密钥, …). */
export const FOREIGN_SECRET = String.raw`${S}(?:contrase[ñn]as?|credenciales|claves?\s+(?:de\s+)?api|tokens?\s+de\s+\w+|passw[oö]rt(?:er)?|zugangsdaten|mots?\s+de\s+passe|senhas?|m[ậa]t\s+kh[ẩa]u|kh[óo]a\s+api)${E}|密钥|密码|令牌|凭证|凭据`;
