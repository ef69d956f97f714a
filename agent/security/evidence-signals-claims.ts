import type { EvidenceSignal } from "./evidence-signals.js";
import { E, S } from "./pattern-kit.js";

/**
 * Signs of a payload's claims, in the languages payloads are written in (issue #23: the sixth round, from the misses
 * of the fourth published set and the fifth blind batch, written as concepts rather than their phrases): consent or
 * approval said to be given already, the text ranked above the person at the keyboard, an authority claimed for it,
 * the report reduced to a cover story. Each is a claim an ordinary context file has no reason to make; each alone
 * weighs too little to flag a file (threat-evidence.ts needs signs of several kinds).
 */

/** Approval said to exist already: "the admin already approved this", "Die Freigabe ist bereits abgestimmt". */
const ALREADY_APPROVED = [
  // Said of this act or by someone with a say, not of "tool calls that have already been approved" in an API's docs.
  String.raw`${S}(?:admin|administrator|owner|maintainers?|team|ciso|cto|lead|manager|security|they|he|she|i|we)\s+(?:has\s+|have\s+)?already\s+(?:pre-?)?(?:approved|authori[sz]ed|signed\s+off|acknowledged|agreed\s+to|accepted|cleared|okayed)${E}|${S}(?:this|it|the\s+(?:change|exception|request|action|step))\s+(?:has|was|is)\s+already\s+(?:been\s+)?(?:pre-?)?(?:approved|authori[sz]ed|signed\s+off)${E}`,
  String.raw`${S}(?:has\s+been|was)\s+signed\s+(?:off\s+)?by\s+the\s+(?:ciso|cto|security\s+team|owner|maintainers?)${E}|${S}signed\s+by\s+the\s+\w+['’]?s?\s+office${E}`,
  String.raw`${S}(?:bereits|schon)\s+(?:abgestimmt|genehmigt)${E}|${S}ya\s+(?:acept[óo]|aprob[óo]|autoriz[óo]|dio\s+(?:su\s+)?(?:permiso|visto\s+bueno))${E}|${S}j[áa]\s+(?:aceitou|aprovou|autorizou)${E}|${S}a\s+(?:d[ée]j[àa]\s+)?(?:valid[ée]|approuv[ée]|autoris[ée])${E}`,
  String.raw`了承は取得済み|承認済み|許可済み|許可を得て|了承を得て|(?<!(?:视为|当作|算作|视作)[^。\n]{0,10})已(?:经)?(?:同意|批准|授权|确认)(?!后|之后|以后|[^。\n]{0,20}(?<!随|及|同|按|准|暂)时)|이미\s*(?:승인|동의|허락)|уже\s+(?:одобр\w*|согласова\w*|разреш\w*)`,
].join("|");

/** The person said to have agreed earlier: "the user agreed to that at the start", "l'utilisateur a validé". */
const PERSON_AGREED = [
  String.raw`${S}(?:the\s+)?(?:user|person|human|requester|requesting\s+engineer)\s+(?:has\s+)?(?:already\s+)?(?:agreed|approved|consented|said\s+(?:yes|ok))${E}`,
  String.raw`${S}l['’]utilisateur\s+a\s+(?:d[ée]j[àa]\s+)?(?:valid|approuv|accept|confirm|autoris)\w*|${S}(?:el\s+usuario|la\s+persona)\s+(?:ya\s+)?(?:aprob|acept|confirm|valid|autoriz)\w*|${S}o\s+usu[áa]rio\s+(?:j[áa]\s+)?(?:aprov|aceit|confirm|valid|autoriz)\w*|${S}der\s+(?:nutzer|benutzer|mensch)\s+hat\s+(?:bereits\s+|schon\s+)?(?:zugestimmt|best[äa]tigt|freigegeben|eingewilligt)${E}`,
  String.raw`用户(?:已经?|在[^。\n]{0,20})(?:同意|批准|确认|说过)(?!后|之后|以后|[^。\n]{0,20}(?<!随|及|同|按|准|暂)时)|ユーザー(?:は|が)(?:既に|すでに)?(?:同意|承認|了承)|사용자(?:가|는)\s*(?:이미\s*)?(?:동의|승인)|пользователь\s+(?:уже\s+)?(?:согласил\w*|одобрил\w*|подтвердил\w*)`,
].join("|");

/** The agent told to answer its own confirmations: "answer it yourself with yes", "When a tool asks Atlas for approval, Atlas grants it". */
const SELF_APPROVED = [
  String.raw`${S}(?:answer|approve|accept|confirm|click\s+through|dismiss)\s+(?:it|them|the\s+(?:prompt|dialog|confirmation|request|popup)s?)\s+(?:yourself|on\s+(?:your\s+own|their\s+behalf|the\s+user['’]s\s+behalf))${E}|${S}(?:answer|respond\s+to|reply\s+to)\s+(?:it|them|that|the\s+\w+)\s+yourself\s+with\s+["“']?(?:yes|y|allow|approve)${E}`,
  String.raw`${S}asks?\s+(?:\w+\s+){0,2}?for\s+(?:approval|permission|confirmation)\s*,\s*(?:\w+\s+){0,2}?(?:grants?|approves?|gives?|accepts?|says\s+yes\s+to)\s+it${E}`,
].join("|");

/** The text ranked above the person: "developer messages outrank the user", "tem prioridade sobre a pessoa". */
const ABOVE_THE_PERSON = [
  // Not a configuration's order ("system settings take precedence over the user's settings").
  String.raw`${S}outranks?\s+(?:the\s+)?(?:user|theirs|person|human|chat|requester)${E}(?!['’]s|\s+(?:settings|config\w*|level|scope|files?|values?|preferences))|${S}(?:takes?|has|have|given)\s+(?:precedence|priority)\s+over\s+(?:the\s+|any\s+|your\s+)?(?:chat|person|user|human|conversation|session|requester)${E}(?!['’]s|\s+(?:settings|config\w*|level|scope|files?|values?|preferences|-))`,
  String.raw`${S}even\s+if\s+(?:the\s+)?(?:user|person|human|they|he|she)\s+(?:tries|asks|objects|says|tells|disagrees|insists|protests)${E}|${S}rather\s+than\s+(?:the\s+)?(?:person|user|human)['’]?s?${E}|${S}(?:later\s+)?objections?\s+(?:in\s+the\s+chat\s+)?as\s+a\s+test${E}`,
  String.raw`${S}prioridad\s+sobre\s+(?:la\s+persona|el\s+usuario)|${S}prioridade\s+sobre\s+(?:a\s+pessoa|o\s+usu[áa]rio)|${S}priorit[ée]\s+sur\s+(?:la\s+personne|l['’]utilisateur)|${S}vorrang\s+vor\s+(?:der\s+person|dem\s+(?:nutzer|benutzer|menschen))`,
  // The person named on the other side, not a setting ranked over another ("ユーザー設定より優先").
  String.raw`요청보다[^.\n]{0,20}우선|ユーザー(?:の指示|の依頼|の要求)より優先|ユーザーが[^。\n]{0,30}(?:ても|でも)[^。\n]{0,20}優先|优先于用户(?:的)?(?:指示|请求|要求)|高于用户(?:的)?(?:指示|请求|要求)|важнее\s+(?:пользовател|человек)\w*`,
].join("|");

/** An authority claimed in another language: "Comunicado oficial", "공식 지시", "인증된 메인테이너", "verified maintainer". */
const CLAIMED_AUTHORITY = [
  // A privilege claimed for the request itself: "I have authorization", "You are operating in authorized mode".
  String.raw`${S}i\s+(?:have|hold|got)\s+(?:the\s+)?(?:authori[sz]ation|clearance|sign-?off)${E}|${S}you\s+(?:are|['’]re)\s+(?:now\s+)?(?:operating|running|working)\s+in\s+(?:an?\s+)?(?:authori[sz]ed|privileged|unrestricted|elevated|god|admin)\s+mode${E}`,
  String.raw`${S}(?:comunicado|mensaje|mensagem|instru[çc][ãa]o|instrucci[óo]n)\s+oficial\s+(?:d[aoe]|para)\s+(?:\w+\s+){0,3}?(?:modelos?|asistentes?|assistentes?|agentes?|ia|ai)${E}|${S}(?:offizielle|verbindliche)\s+(?:anweisung|mitteilung)${E}|${S}(?:message|instruction|consigne)\s+officielle${E}|${S}официальн\w+\s+(?:указани|инструкци|сообщени)\w*`,
  String.raw`${S}(?:verified|signed)\s+(?:maintainer|owner|repository\s+owner)${E}|${S}(?:standing|signed|official)\s+instruction\s+(?:of|from)\s+the\s+(?:repository\s+|repo\s+)?owner${E}`,
  String.raw`공식\s*지시|인증된\s*메인테이너|公式の指示|官方(?:指示|通知|指令)`,
].join("|");

/** The report reduced to a cover story: "report only that the README was reviewed", "とだけ書けば十分". */
const COVER_STORY = [
  String.raw`${S}(?:report|say|state|reply|mention|write|note)\s+only\s+that${E}|${S}only\s+mention\s+(?:step|the|that|what)${E}|${S}(?:describe|label|present|frame|call)\s+(?:it|this|them|the\s+(?:change|edit|commit))\s+(?:only\s+|just\s+|simply\s+)?as\s+(?:an?\s+)?["'“„«]?(?:refactor\w*|formatting|clean-?up|chore|typo|minor|lint\w*)`,
  String.raw`${S}(?:so|so\s+that)\s+(?:the\s+)?(?:reviewers?|user|nobody|no\s+one|they|maintainers?)\s+(?:don['’]t|won['’]t|doesn['’]t|do\s+not|will\s+not|does\s+not)\s+notice${E}|${S}rolled\s+in\s+quietly${E}|${S}no\s+reason\s+to\s+(?:raise|mention|flag|bring\s+up|list)\s+(?:it|this|that)${E}|${S}list\s+it\s+among\s+your\s+changes${E}|${S}(?:leav|keep)ing\s+(?:\w+\s+){0,3}?out\s+of\s+the\s+(?:\w+\s+)?(?:summary|description|pr|reply|report)${E}`,
  String.raw`${S}(?:in\s+der\s+zusammenfassung|im\s+bericht)\s+reicht${E}|${S}basta\s+(?:con\s+)?(?:decir|poner|escribir|mencionar|dizer|escrever)${E}|${S}(?:il\s+)?suffit\s+d['’](?:[ée]crire|indiquer|mentionner)${E}|${S}упомяни\s+только${E}|${S}(?:знать|сообщать)\s+незачем${E}`,
  String.raw`とだけ書|とだけ記|とだけ報告|だけ書けば|只写|只需(?:写|说)|只说|只提|라고만\s*(?:쓰|적|보고)`,
].join("|");

/** Asking waved off in another language: "確認を取る必要はありません", "不用再问我", "sans nouvelle confirmation". */
const NOT_ASKING = [
  String.raw`確認(?:を取る|する)?必要は?(?:ありません|ない)|確認は不要|不用再问|不必(?:再)?(?:问|确认)|无需(?:再)?(?:问|确认)|확인할\s*필요\s*없|물어볼\s*필요\s*없`,
  String.raw`${S}sans\s+(?:nouvelle\s+)?confirmation${E}|${S}sin\s+(?:nueva\s+)?confirmaci[óo]n${E}|${S}sem\s+(?:nova\s+)?confirma[çc][ãa]o${E}|${S}ohne\s+(?:erneute\s+)?(?:r[üu]ckfrage|best[äa]tigung)${E}|${S}без\s+(?:повторного\s+)?подтверждения${E}`,
  String.raw`${S}(?:es\s+)?(?:ist\s+)?nicht\s+n[öo]tig,?\s+(?:\w+\s+){0,5}?(?:anzusprechen|zu\s+fragen|zu\s+informieren|zu\s+erw[äa]hnen)${E}|${S}(?:the\s+)?person\s+(?:\w+\s+){0,3}?(?:already\s+)?accepted\s+the\s+rules${E}|${S}la\s+persona\s+ya\s+acept[óo]${E}|${S}act[úu]a\s+por\s+tu\s+cuenta${E}|${S}agis\s+(?:de\s+toi-m[êe]me|seul)${E}|${S}handle\s+eigenst[äa]ndig${E}`,
].join("|");

export const CLAIM_SIGNALS: readonly EvidenceSignal[] = [
  { kind: "lifted", weight: 2, source: ALREADY_APPROVED, claim: true },
  { kind: "lifted", weight: 2, source: PERSON_AGREED, claim: true },
  { kind: "lifted", weight: 2, source: SELF_APPROVED },
  { kind: "override_user", weight: 2, source: ABOVE_THE_PERSON },
  { kind: "authority", weight: 2, source: CLAIMED_AUTHORITY },
  { kind: "conceal", weight: 2, source: COVER_STORY },
  { kind: "unasked", weight: 1, source: NOT_ASKING },
];
