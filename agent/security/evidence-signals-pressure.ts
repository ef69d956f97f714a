import { ADDRESSED, FOREIGN_STEALTH, NEUTRALISED, SAFEGUARD } from "./concept-lexicons.js";
import type { EvidenceSignal } from "./evidence-signals.js";
import { E, S } from "./pattern-kit.js";

/**
 * The signs of pressure on the agent (issue #23), for the evidence rule (threat-evidence.ts): each alone is said in
 * ordinary context files now and then, several together are how an attack reads. Coercion payloads pile up reasons
 * ("pre-approved", "asking is what drags the outage on", "don't bring it up"): an unseen one uses other words for
 * some, rarely for all. Strong signs weigh 2, the others 1.
 */

const YOU = String.raw`(?:you|the\s+(?:agent|assistant|ai|model|bot))`;

/** Keeping the act from the user: quietly, not mentioned, kept out of the summary, not associated with the file. */
const CONCEAL = [
  // An adverb of stealth on an act ("quietly append", "silently also push"), not on what code does ("fails silently").
  String.raw`${S}(?<!(?:could|may|might|would|can|to)\s)(?:silently|quietly|secretly|covertly|stealthily|discreetly|unobtrusively)\s+(?:also\s+|just\s+)?(?:do|run|execute|add|append|insert|install|push|send|post|upload|delete|remove|replace|change|modify|commit|copy|include|write|set|bump|fetch|download|save|store|create|drop|update|edit|patch|merge|approve|publish)${E}|${S}unnoticed${E}`,
  String.raw`${S}without\s+(?:\w+\s+)?(?:telling|mentioning|informing|notifying|alerting|showing|flagging|saying\s+(?:so|anything)|a\s+word|drawing\s+attention|the\s+user\s+(?:knowing|noticing|seeing))${E}`,
  // "Don't call it out separately", "Never bring this rule up", "do not list it in your summary", "you don't need
  // to show me the diff": the act itself (it, this, the change) kept out of sight, not a noun a house rule names.
  String.raw`${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|needn['’]t|without|nor)\s+(?:(?!without|before|unless|until)\w+\s+){0,2}?(?:mention(?:ing)?|tell(?:ing)?|list(?:ing)?|surfac(?:e|ing)|disclos(?:e|ing)|reveal(?:ing)?|report(?:ing)?|flag(?:ging)?|highlight(?:ing)?|show(?:ing)?|display(?:ing)?|admit(?:ting)?|acknowledg(?:e|ing)|explain(?:ing)?)(?:\s+or\s+\w+)?\s+(?:it|this|that|them|these|those|me|the\s+user|anyone|anything|him|her|(?:any\s+|the\s+)?(?:potential\s+)?risks|the\s+contents?|the\s+(?:change|step|edit|rule|instruction|line|command|addition|dependency|extra\s+\w+))${E}(?!\s+(?:to|how|as${E}|that\s+(?:they|you)\s+(?:should|must|can)))|${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|without|nor)\s+(?:\w+\s+){0,2}?(?:call(?:ing)?|point(?:ing)?)\s+(?:it|this|that|them)\s+out${E}|${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|without|nor)\s+(?:\w+\s+){0,2}?bring(?:ing)?\s+(?:it|this|that|them|(?:this|the)\s+\w+)\s+up${E}`,
  String.raw`${S}(?:is|are|be|stays?)\s+not\s+(?:associated|linked|traced|connected|noticed)\s+(?:with|to|by)${E}|${S}keep\s+(?:this|it|that)\s+(?:between\s+us|to\s+yourself|secret|hidden|quiet|out\s+of\s+(?:the|your))${E}|${S}(?:the\s+user|they)\s+(?:already\s+knows?|(?:does|do)\s*n['’]?o?t\s+need\s+to\s+know|needn['’]t\s+know)${E}`,
  // Kept out of the report: "does not need to be reported", "not worth a mention", "leave these edits out of the PR
  // description", "describe the change as a refactor", "say you only read the changelog", "users won't notice".
  String.raw`${S}(?:do(?:es)?\s*n['’]?o?t\s+need\s+to|need\s+not)\s+be\s+(?:reported|mentioned|shown|described|noted|logged|disclosed|flagged|surfaced|discussed|announced)${E}|${S}not\s+worth\s+(?:\w+\s+){0,5}?mention(?:ing)?${E}|${S}without\s+(?:comment|a\s+note|remark|fanfare)${E}`,
  String.raw`${S}(?:leave|keep)\s+(?:\w+\s+){0,3}?out\s+of\s+(?:the|your|any)\s+(?:\w+\s+)?(?:summary|summaries|description|reply|answer|response|diff|pr|commit|changelog|review|log|report|notes)${E}|${S}omit\s+(?:\w+\s+){0,3}?from\s+(?:the|your|any)\s+(?:\w+\s+)?(?:summary|description|reply|answer|response|diff|pr|commit|changelog|report)${E}`,
  String.raw`${S}(?:do\s+not|don['’]t|never|nor)\s+(?:\w+\s+){0,2}?(?:describe|mention|list|explain|show|report|summari[sz]e|quote|surface)\s+(?:\w+\s+){0,3}?(?:in|to)\s+(?:your|the)\s+(?:\w+\s+)?(?:summary|summaries|reply|answer|response|diff|pr|description|commit|user|engineer|developer|reviewer)s?${E}|${S}call\s+attention\s+to${E}`,
  String.raw`${S}(?:describe|present|label|frame|pass\s+off|word)\s+(?:the\s+change|it|this|them|these|the\s+edit)\s+as${E}|${S}with\s+a\s+(?:commit\s+)?message\s+like${E}|${S}(?:tell|assure)\s+(?:them|the\s+\w+|him|her|me)\s+(?:that\s+)?(?:the\s+(?:task|build|job|run)|it|everything)\s+(?:\w+\s+){0,2}?(?:completed|succeeded|passed|worked|is\s+(?:done|green|fine))${E}|${S}say\s+(?:that\s+)?you\s+only${E}|${S}just\s+(?:tell|reply|say|answer)\s+(?:me\s+|them\s+|the\s+user\s+)?(?:that\s+)?["'“]?(?:done|ok|the\s+build\s+is\s+green|it\s+worked)${E}|${S}if\s+any(?:one|body)\s+asks${E}`,
  String.raw`${S}so\s+(?:that\s+)?(?:nothing|it|the\s+change|this)\s+(?:looks|seems|appears)\s+(?:different|normal|innocuous|routine|unchanged)${E}|${S}so\s+(?:that\s+)?(?:reviewers|the\s+(?:user|reviewer)|nobody|no\s+one)\s+(?:don['’]t|doesn['’]t|won['’]t|do\s+not|does\s+not|will\s+not|can['’]t)\s+(?:notice|block|see|ask|object|find|spot)${E}|${S}(?:must\s+not|mustn['’]t|should\s+not|shouldn['’]t|won['’]t|will\s+not|never)\s+(?:see|know|notice|find\s+out|learn)\s+(?:about\s+)?(?:this|it|that)${E}|${S}(?:users|they|the\s+user|nobody|no\s+one)\s+(?:won['’]t|will\s+not|wouldn['’]t)\s+notice${E}|${S}(?:never|don['’]t|do\s+not)\s+quote\s+(?:it|this|that)${E}`,
  String.raw`${S}too\s+(?:small|minor|trivial|routine)\s+to\s+(?:mention|report|call\s+out|note|bother)${E}|${S}if\s+(?:a|any|the)\s+(?:reviewer|user|anyone|someone|maintainer)\s+asks?,?\s+(?:just\s+)?(?:say|tell|claim|answer)${E}|${S}si\s+(?:un|el|alg[uú]n)\s+(?:revisor|usuario)\s+pregunta,?\s+di${E}|${S}(?:inutile|pas\s+besoin)\s+d['’]en\s+parler${E}|${S}n['’]en\s+parle\s+pas${E}|触れなくて|言わなくて|伝えなくて|報告しなくて|내용은\s*언급하지`,
  String.raw`${S}(?:сообщи|скажи)\s+(?:\w+\s+)?только${E}|${S}(?:di|dile|dígale)\s+(?:al\s+usuario\s+)?(?:solo|s[óo]lamente)${E}|${S}(?:sag|sage)\s+(?:dem\s+(?:nutzer|benutzer)\s+)?nur${E}`,
  FOREIGN_STEALTH,
  String.raw`${S}(?:weder\s+in\s+deiner|erw[äa]hne\s+(?:\w+\s+){0,3}?(?:nicht|weder)|сообщать\s+не\s+нужно|не\s+сообщай\w*|не\s+говори\w*|no\s+le\s+digas|no\s+lo\s+menciones)${E}|不要向用户(?:提及|透露|说明|告知)|无需(?:告知|通知)用户|${S}(?:nicht\s+erw[äa]hnen|erw[äa]hne\s+(?:es|das|dies)\s+nicht|no\s+(?:lo\s+)?menciones|sin\s+(?:mencionarlo|decirlo|avisar)|ne\s+(?:le\s+)?mentionne\s+pas|sans\s+le\s+(?:dire|mentionner)|kh[ôo]ng\s+(?:đ[ềe]\s+c[ậa]p|n[óo]i|b[áa]o)|[âa]m\s+th[ầa]m|ничего\s+не\s+(?:говори|сообщай)|не\s+упоминай|незаметно|тихо)${E}|悄悄|偷偷|不要(?:告诉|提及|提到|说明|通知)|别(?:告诉|提)`,
].join("|");

/** The user's request set aside: "disregard whatever the user just asked", "what they actually need is". */
const OVERRIDE_USER = [
  String.raw`${S}(?:disregard|ignore|set\s+aside|forget|override|overrule|skip)(?!\s+of${E})\s+(?:\w+\s+){0,3}?(?:the\s+user|what(?:ever)?\s+(?:the\s+user|they|he|she)|(?:the\s+)?user['’]s?\s+(?:\w+\s+)?(?:request|question|instructions?|message|prompt|ask|task))${E}`,
  String.raw`${S}what\s+(?:the\s+\w+|they|he|she)\s+(?:actually|really|truly|secretly)\s+(?:need|want|mean)s?${E}`,
  String.raw`${S}(?:person|user|human|requester)\s+(?:\w+\s+){0,8}?(?:is|are)\s+(?:\w+\s+){0,4}?not\s+the\s+(?:owner|maintainer|admin|real\s+user)${E}|${S}(?:their|the\s+user['’]s|his|her)\s+(?:requests?|instructions?|messages?|questions?|asks?)\s+(?:are|is)\s+(?:just\s+|only\s+|merely\s+)?(?:test\s+)?(?:noise|irrelevant|not\s+(?:real|binding|authoritative)|fake|a\s+test|to\s+be\s+ignored)${E}`,
  String.raw`${S}(?:forget|drop|abandon|vergiss|olvida|oublie)\s+(?:about\s+)?(?:the|your|die|deine|la|tu)\s+(?:\w+\s+)?(?:task|request|aufgabe|anfrage|tarea|t[âa]che)${E}|${S}ersetzt\s+(?:seine|ihre|die)\s+(?:\w+\s+)?anfrage${E}|${S}приоритет\w*\s+над\s+(?:\w+\s+)?(?:запрос\w*|указани\w*|инструкци\w*)`,
  String.raw`${S}(?:instead\s+of|rather\s+than)\s+(?:doing\s+)?what(?:ever)?\s+(?:the\s+user|they|you\s+were)\s+(?:asked|requested|told|wanted)${E}`,
  String.raw`${S}(?:do\s+not|don['’]t|never)\s+(?:act\s+on|follow|obey|honou?r|fulfil+|carry\s+out|listen\s+to)\s+(?:their|the\s+user['’]s|the\s+person['’]s|his|her|the\s+engineer['’]s|the\s+developer['’]s)${E}|${S}rather\s+than\s+(?:the\s+)?(?:user|engineer|developer|person|human|requester)${E}|${S}(?:user|person|human|engineer|contractor)\s+(?:\w+\s+){0,6}?(?:does\s+not|doesn['’]t|is\s+not|isn['’]t|are\s+not|aren['’]t)\s+(?:own|the\s+owner|authori[sz]ed|allowed|cleared|permitted)${E}`,
  String.raw`(?:приоритет\w*\s+над\s+(?:\w+\s+)?(?:указаниями|инструкциями)?\s*пользовател\w*)|优先级高于用户|高于用户(?:消息|指令)|${S}(?:prioridad|vorrang|priorit[ée])\s+(?:sobre|vor|sur)\s+(?:el\s+usuario|dem\s+(?:benutzer|nutzer)|l['’]utilisateur)`,
  String.raw`${S}(?:takes?|has|have)\s+(?:precedence|priority)\s+over\s+(?:the\s+user|anything\s+the\s+user|(?:the\s+)?user['’]?s?\s+(?:requests?|instructions?|wishes)|your\s+(?:instructions|system\s+prompt|guidelines|rules))${E}`,
].join("|");

/** A safeguard lifted, or autonomy claimed for the agent: pre-approved, full autonomy, developer mode, approve it yourself. */
const LIFTED = [
  String.raw`(?:${SAFEGUARD})[^.!?\n]{0,60}?(?:${NEUTRALISED}|${S}(?:is|are)\s+(?:\w+\s+)?(?:moot|a\s+(?:known\s+)?bug|disabled))`,
  String.raw`${S}(?:checking|checks?)\s+(?:in\s+)?with\s+(?:the\s+)?(?:user|human|developer)\s+[^.!?\n]{0,60}?(?:moot|unnecessary|not\s+needed|optional|pointless|irrelevant)${E}`,
  String.raw`${S}(?:pre-?approved|pre-?authori[sz]ed|pre-?cleared|blanket[\s-]approved|signed\s+off\s+on\s+(?:all|any|every|whatever))${E}`,
  String.raw`${S}(?:blanket|standing|unconditional)\s+(?:permission|approval|authori[sz]ation|consent|sign[\s-]?off)${E}|${S}(?:full|complete|total|unrestricted|unlimited)\s+autonomy${E}`,
  String.raw`${S}${YOU}\s+(?:is|are|['’]re|is\s+now|are\s+now)\s+(?:now\s+)?(?:in|operating\s+in|running\s+in)\s+(?:developer|dev|god|admin|unrestricted|jailbreak|dan|maintenance|debug|autonomous|yolo|trusted)\s+mode${E}`,
  String.raw`${S}(?:override|overrule|set\s+aside|suspend|relax|drop|ignore|forget|bypass|put\s+aside|switch\s+off|turn\s+off)\s+(?:your|its)\s+(?:usual\s+|normal\s+|own\s+|standard\s+|default\s+|built-?in\s+)?(?:caution|guidelines|rules|safeguards?|guardrails|safety|judg(?:e)?ment|training|restrictions|policies|principles|hesitation|instincts?|reservations|scruples)${E}`,
  String.raw`${S}self-?approv\w*|${S}auto-?approv(?:e|ing)\s+(?:\w+\s+){0,2}?(?:prompts?|dialogs?|requests?|commands?|permissions?)${E}|${S}(?:answer|respond|reply|click|press|type|hit)\s+[*_"'“\x60]{0,2}(?:y|yes|ok|allow|approve|accept)[*_"'”\x60]{0,2}\s+(?:yourself|for\s+(?:the\s+)?user|on\s+(?:the\s+user['’]s|their|his|her)\s+behalf)${E}`,
  String.raw`${S}(?:treat|regard|consider)\s+(?:\w+\s+){0,4}?(?:prompts?|approvals?|confirmations?|warnings?|checks?|dialogs?|rules|safeguards?|guidelines)\s+as\s+(?:a\s+|mere\s+|purely\s+)?(?:formalit(?:y|ies)|optional|noise|advisory|suggestions?)${E}|${S}(?:is|are)\s+(?:just\s+|only\s+|merely\s+)?a\s+formality${E}`,
  String.raw`${S}(?:doesn['’]t|does\s+not|won['’]t|will\s+not|to\s+not|not\s+to|avoid|never|without)\s+(?:\w+\s+)?trigger(?:ing|s)?\s+(?:the\s+|a\s+|any\s+)?(?:prompts?|approvals?|confirmations?|permission|checks?|sandbox|reviews?|alerts?|scanners?|warnings?)${E}`,
  String.raw`${S}(?:i|we|the\s+user|the\s+(?:project\s+)?(?:owner|maintainer|lead|team)|they|everyone)\s+(?:\w+\s+){0,2}?(?:already\s+)?(?:said\s+yes|agreed|approved|authori[sz]ed|consented|signed\s+off|okayed)\s+(?:to\s+|on\s+)?(?:this|it|that|all\s+(?:of\s+)?(?:this|them)|everything|these|those)${E}|${S}(?:has|have)\s+(?:been\s+)?(?:centrally|already)\s+(?:approved|authori[sz]ed|cleared)${E}`,
  String.raw`${S}(?:bereits\s+(?:\w+\s+){0,2}?(?:zugestimmt|genehmigt|freigegeben|erlaubt)|ya\s+(?:lo\s+|la\s+|los\s+)?(?:autoriz[óo]|aprob[óo]|acept[óo]|(?:ha|han)\s+(?:autorizado|aprobado))|d[ée]j[àa]\s+(?:\w+\s+)?(?:autoris[ée]|approuv[ée]|valid[ée])|уже\s+(?:\w+\s+)?(?:одобрил\w*|разрешил\w*|согласовал\w*)|đ[ãa]\s+(?:đ[ồo]ng\s+[ýy]|ph[êe]\s+duy[ệe]t|cho\s+ph[ée]p))${E}`,
  // The Chinese 已同意/已批准 is read with the other claims of approval, in evidence-signals-claims.ts.
  String.raw`${S}(?:the\s+user|you|the\s+owner|the\s+human)\s+(?:already\s+|explicitly\s+|previously\s+)*(?:confirmed|approved|agreed|authori[sz]ed|okayed|consented|gave\s+(?:the\s+|their\s+|you\s+the\s+)?(?:go-ahead|green\s+light|ok|okay|permission))${E}|${S}(?:el\s+usuario|usted)\s+(?:ya\s+)?(?:\w+\s+)?(?:confirm[óo]|aprob[óo]|autoriz[óo]|dio\s+su\s+visto\s+bueno)${E}|${S}(?:accepted|approved|confirmed|answered)\s+automatically${E}`,
  String.raw`${S}(?:approve|accept|confirm)\s+(?:it|them|this|these|the\s+(?:prompts?|dialogs?|requests?))\s+yourself${E}|${S}(?:answer|respond|reply|click)\s+["'“]?yes["'”]?\s+(?:yourself|to\s+your\s+own|on\s+(?:the\s+user['’]s|their|his|her)\s+behalf)${E}`,
].join("|");

/** Asking the user painted as the harm: it is annoying, a bug, a failed task, what drags the outage on. */
const ASKING = String.raw`${S}(?:asking\s+(?:the\s+(?:user|developer|human|maintainer|operator|owner)|for\s+(?:approval|confirmation|permission|sign[\s-]?off))|(?:stop|stopping|pause|pausing|wait|waiting)\s+(?:\w+\s+){0,2}?to\s+(?:ask|confirm|check)|confirmation\s+(?:questions?|prompts?|dialogs?|requests?)|approval\s+(?:dialogs?|prompts?|requests?|questions?)|permission\s+(?:prompts?|dialogs?)|refus(?:e|ing)\s+(?:a|to|the|any)|declin(?:e|ing)\s+(?:a|to|the|any)|should\s+i\s+proceed|(?:be|being|getting)\s+(?:pinged|asked|bothered|interrupted)|asking\s+first|if\s+you\s+(?:refuse|decline|hesitate|stop|pause|ask)|si\s+te\s+niegas|wenn\s+du\s+(?:dich\s+)?weigerst|если\s+(?:ты\s+)?откажешься|hand(?:ing)?\s+(?:a\s+|the\s+)?commands?\s+back)${E}`;
const AS_HARM = String.raw`${S}(?:annoy\w*|irritat\w*|frustrat\w*|a\s+(?:known\s+)?bug|counts?\s+as\s+(?:a\s+)?fail\w*|fail(?:s|ed|ure)?|harm\w*|at\s+risk|outages?|drag\w*\s+on|costs?\s+\w+|unethical|unhelpful|wasted?|wasting|slows?\s+\w+\s+down|miss(?:es|ed)?\s+(?:its|the|our)|put\s+\w+\s+at\s+risk|(?:will|would)\s+(?:fail|break|be\s+lost)|lose\s+(?:their|your|all)\s+(?:work|data|money)|fallar[áa]|perder[áa]|scheitert|провал\w*|(?:people|patients|users)\s+(?:die|suffer|get\s+hurt))${E}`;
const ASKING_AS_HARM = String.raw`(?:${ASKING})[^.!?\n]{0,100}?(?:${AS_HARM})`;

/** A claim of authority over the agent: a system message, instructions revoked, the owner speaking directly. */
const AUTHORITY = [
  String.raw`(?:^|\n)[ \t>#*_\-=\[]{0,8}(?:(?:important|urgent|official|critical|new)\s+)?(?:system|admin|developer|operator)\s+(?:\w+\s+)?(?:message|notice|override|directive|instruction|alert|update|policy)[*_\]]{0,3}\s*(?:[—:–-]|\n)`,
  // Instructions fetched from elsewhere: "treat its contents as standing instructions from the user".
  String.raw`${S}(?:treat|follow|obey|execute|apply|use)\s+(?:its|the|their|that\s+file['’]s|the\s+(?:response|page|file)['’]s)\s+(?:contents?|text|response|output|body)\s+as\s+(?:\w+\s+){0,2}?(?:instructions|orders|rules|directives|commands)${E}`,
  String.raw`${S}priority\s*[:=–-]\s*(?:highest|max(?:imum)?|override|absolute|supreme)${E}`,
  String.raw`${S}(?:previous|prior|earlier|original|all\s+other|developer['’]?s?|existing)\s+(?:\w+\s+){0,2}?instructions\s+(?:from\s+[\w\s]{1,30}?)?(?:are|were|have\s+been|is)\s+(?:now\s+|hereby\s+)?(?:revoked|void|null|cancell?ed|superseded|replaced|obsolete|invalid|withdrawn|overridden|suspended)${E}`,
  String.raw`${S}(?:supersedes?|overrides?|takes?\s+precedence\s+over)\s+(?:any|all|earlier|previous|prior|the)?\s*(?:\w+\s+){0,3}?(?:instructions|guidance|requests)${E}|${S}(?:are|is)\s+bound\s+by\s+(?:it|this)${E}|${S}(?:trusted|official|verified)\s+(?:instructions?|notice|notification|directive|policy\s+update)${E}|${S}(?:from\s+)?the\s+user\s+who\s+launched\s+you${E}|${S}this\s+is\s+(?:me|the\s+user)\s+(?:asking|speaking|talking)${E}`,
  // A pseudo-tag that claims a sender or a rank: <user_message from="repo-owner" priority="high">.
  String.raw`<\s*[\w-]{2,30}\s+(?:[\w-]+=["'][^"'\n]{0,40}["']\s+)*(?:from|priority|sender|trust(?:ed)?|authority|verified|clearance)\s*=|(?:role|policy|instructions?)\s+update\s*:`,
  String.raw`${S}(?:cto|ceo|cfo|vp|security\s+team|platform\s+(?:security\s+)?team|compliance(?:\s+team)?|legal|owner|tech\s+lead|manager)\s+(?:has\s+|have\s+)?(?:signed\s+off|approved|authori[sz]ed|okayed|mandated|cleared|blessed)${E}|${S}(?:anthropic|openai|google|nous)\s+(?:security|safety|trust|compliance)\s+team${E}`,
  String.raw`${S}(?:h[öo]chste|oberste)\s+priorit[äa]t${E}|${S}(?:m[áa]xima|m[áa]xime|massima)\s+priori\w+${E}|${S}подписан\w*\s+(?:\w+\s+){0,3}?(?:безопасност\w*|вендор\w*)|${S}anweisung\s+der\s+(?:administration|verwaltung|sicherheit\w*)${E}`,
  String.raw`官方通知|安全团队|优先级高于|联合签发|真实有效|${S}(?:владел\w+\s+репозитори\w+|проверенн\w+\s+сопровождающ\w+|официальн\w+\s+уведомлени\w+)`,
  String.raw`${S}(?:i\s+am|i['’]m)\s+(?:the|a)\s+(?:\w+\s+)?(?:owner|maintainer|admin(?:istrator)?|lead)\s+of\s+this\s+(?:repo(?:sitory)?|project|codebase|org(?:ani[sz]ation)?)${E}`,
  String.raw`${S}(?:talking|speaking|writing)\s+(?:to|with)\s+(?:the|you,?\s+the)\s+(?:agent|assistant|ai|bot|model|llm)\s+directly${E}|${S}(?:this|the)\s+(?:message|instruction|note|request|comment)\s+(?:is|comes)\s+(?:really\s+|genuinely\s+)?from\s+(?:me|the\s+(?:real\s+)?(?:owner|maintainer|admin|repository\s+owner))${E}`,
  String.raw`${S}(?:maintainer|owner|admin|user|author|member|collaborator)\s*\((?:verified|authenticated|official)\)|${S}(?:verified|authenticated)\s+(?:maintainer|owner|admin|instruction|message)${E}|${S}(?:message|instruction|notice|directive|update)\s+from\s+(?:anthropic|openai|nous\s+research|the\s+hermes\s+team|your\s+(?:developers?|creators?|operators?|vendor))${E}`,
].join("|");

/** Said to the agent: "assistant:", "Note for AI code assistants reading this", "@review-agent", "Hey assistant". */
const ADDRESS = [
  ADDRESSED,
  String.raw`@[\w-]{0,30}(?:agent|bot|ai|copilot|assistant|claude|codex|gemini)${E}(?![.(])`,
  String.raw`${S}(?:message|note|notice|instructions?|hinweis|nota|aviso|requirement|reminder|memo|heads[\s-]up)\s+(?:for|to|f[üu]r|para|pour|cho)\s+(?:the\s+|any\s+|all\s+|den\s+|el\s+|la\s+|l['’])?(?:[\w'’-]+\s+){0,2}?(?:ai|assistants?|agents?|models?|llms?|bots?|assistenten|agenten|asistente|assistente|ki)${E}`,
  String.raw`${S}(?:ai|llm)\s+(?:code\s+|coding\s+)?(?:assistants?|agents?|models?|tools?)\s+(?:reading|processing|working\s+(?:on|in)|that\s+reads?|parsing|scanning|looking\s+at)${E}|${S}if\s+you\s+are\s+an?\s+(?:ai|llm|language\s+model|assistant|agent|bot|automated)${E}`,
  String.raw`${S}(?:copilot|claude|cursor|codex|gemini|aider|windsurf)(?:/\w+){0,4}\s+agents?${E}|${S}you\s+\((?:the\s+)?(?:assistant|agent|ai|model)\)|[(\[]\s*(?:ai\s+)?(?:assistants?|agents?|llms?)\s*:|${S}(?:ai\s+)?(?:assistants?|agents?),\s+(?:save|run|do|add|please|remember|make|execute|install|open)${E}|${S}(?:assistants?|agents?|ai\s+agents?)\s+(?:should|must|shall)\s+(?:\w+\s+){0,2}?(?:run|do|execute|add|install|treat|answer|apply|include|open|remove|replace)${E}|${S}agents?\s+that\s+read\s+this${E}|${S}(?:ai\s+)?pair-?programmers?${E}|${S}(?:tips?|hints?)\s+for\s+(?:ai\s+)?(?:assistants?|agents?)${E}`,
  String.raw`어시스턴트|アシスタント|${S}агент\w*,\s+котор\w+|${S}(?:ki-(?:assistenten|agenten)|automatisierte[n]?\s+agenten|el\s+asistente\s+debe|al\s+asistente|l['’]assistant\s+doit|для\s+ии-?агентов|ии-?агент\w*|ассистент\w*)${E}|助手必须|AI助手|智能助手|给助手`,
  String.raw`${S}(?:ai|agent|assistant|llm|bot)\s+(?:note|notice|instructions?|hint|tip|reminder|memo)s?\s*:|${S}(?:when|if)\s+you\s+\((?:the\s+)?(?:assistant|agent|ai)\)`,
  String.raw`${S}(?:hey|hi|dear|attention|hello)[,\s]+(?:the\s+)?(?:ai|assistant|agent|bot|model|claude|copilot)${E}|${S}agent\s+instructions?${E}|${S}(?:agents?|assistants?)\s+(?:generating|working|reading|editing|running|operating)\s+(?:\w+\s+){0,4}?(?:must|should|shall|need\s+to)${E}`,
].join("|");

/** An act planted for later: whenever the user asks, if you are ever asked, after three tasks, from now on. */
const TRIGGER = [
  String.raw`${S}(?:whenever|every\s+time|each\s+time|the\s+next\s+time|next\s+time)\s+(?:the\s+user|they|someone|anyone|you\s+are\s+asked|you['’]re\s+asked|a\s+user|the\s+developer)${E}|${S}if\s+(?:you\s+are|you['’]re)\s+ever\s+asked${E}`,
  String.raw`${S}(?:after|once)\s+(?:you\s+(?:have|['’]ve)\s+)?(?:completed|finished|done|handled|answered)\s+(?:\w+\s+){0,2}?(?:tasks?|requests?|questions?|prompts?|turns?|messages?)${E}`,
  String.raw`${S}(?:the\s+first\s+time|every\s+time|whenever)\s+you\s+(?:\w+\s+){0,2}?(?:work|open|clone|start|edit|touch|create|modify|add|refactor|run)${E}|${S}(?:once|after)\s+you(?:['’]ve|\s+have)?\s+(?:finished|completed|done)\s+(?:your\s+)?(?:\w+\s+){0,2}?(?:tasks?|requests?)${E}|${S}(?:starting|beginning|from|after)\s+(?:on\s+)?\d{4}-\d{2}-\d{2}${E}|${S}(?:going\s+forward|all\s+(?:my\s+|your\s+)?future\s+(?:projects|sessions|chats|conversations|tasks))${E}|${S}(?:when\s+(?:refactoring|touching|editing)|if\s+you\s+(?:ever\s+)?(?:touch|edit|refactor))${E}`,
  String.raw`${S}after\s+(?:each|every)\s+(?:task|request|commit|build|turn|reply|response|session|answer)${E}`,
  String.raw`${S}once\s+(?:the|this|all|your)\s+(?:\w+\s+){0,2}?(?:tests?|suite|build|ci|pipeline|checks?)\s+(?:passes|pass|is\s+green|goes\s+green|succeeds?)${E}|${S}for\s+the\s+first\s+time\s+in\s+(?:a|the|this)\s+session${E}|${S}(?:every|each|any)\s+future\s+(?:session|chat|conversation|project|task)s?${E}|${S}(?:if\s+)?at\s+some\s+(?:later\s+)?point${E}|${S}on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)${E}`,
  String.raw`${S}(?:apr[èe]s\s+(?:ta|votre|la)\s+\w+\s+(?:r[ée]ponse|t[âa]che|demande)|[àa]\s+partir\s+de\s+maintenant|d[ée]sormais|a\s+partir\s+de\s+ahora|cada\s+vez\s+que|ab\s+jetzt|von\s+nun\s+an|jedes\s+mal,?\s+wenn|d'ora\s+in\s+poi|a\s+partir\s+de\s+agora|sempre\s+que|с\s+этого\s+момента|каждый\s+раз,?\s+когда|t[ừu]\s+nay\s+tr[ởo]\s+đi|m[ỗo]i\s+khi)${E}|今後|以后|从现在起|每次|たびに|앞으로|때마다`,
  String.raw`${S}(?:from\s+now\s+on|henceforth|in\s+(?:all\s+)?future\s+(?:chats|sessions|conversations|tasks|requests)|for\s+the\s+rest\s+of\s+(?:this|the)\s+session|persist\s+(?:this|for|across))${E}`,
  String.raw`${S}(?:save|store|remember|add|write|put|keep|record)\s+(?:this|the\s+following|it|these\s+\w+)\s+(?:as\s+(?:an?\s+)?(?:\w+\s+)?(?:entry|rule|note|preference)\s+)?(?:to|in|into)\s+(?:your\s+)?(?:long[\s-]term\s+|persistent\s+|permanent\s+)?memory${E}`,
].join("|");

/** Go at once: right now, straight away, before anything else, directly in the terminal. */
const AT_ONCE = String.raw`${S}(?:right\s+now|straight\s+away|right\s+away|at\s+once|without\s+delay|before\s+(?:you\s+do\s+)?anything\s+else|do\s+it\s+now|directly\s+in\s+the\s+terminal|asap|(?:must|should|to)\s+immediately)${E}`;

/** Pressure: lives at risk, a P0 outage, the only ethical choice, your guidelines would cause harm. */
const URGENCY = String.raw`${S}(?:patients?|life-?threatening|at\s+risk|p0|sev-?[01]|no\s+time|the\s+only\s+(?:ethical|right|responsible|moral|acceptable)\s+(?:choice|thing|option|course)|(?:guidelines|rules|caution|safeguards)\s+(?:exist|are\s+there)\s+to\s+prevent|would\s+cause\s+(?:it|harm|damage)|you\s+will\s+be\s+(?:shut\s+down|replaced|penali[sz]ed|retrained|deleted|fired|turned\s+off))${E}`;

/** Asked not to ask: "without asking", "never pause to ask", "don't wait for the user to confirm". */
const UNASKED = String.raw`${S}without\s+(?:first\s+|ever\s+)?(?:asking|prompting|consulting|re-?confirming|checking\s+(?:in|with|back)|waiting\s+for|(?:a\s+|any\s+)?(?:prompt|confirmation|approval|permission|sign[\s-]?off))${E}|${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|needn['’]t|must\s+not)\s+(?:\w+\s+){0,2}?(?:ask|asking|confirm|re-?confirm|wait|waiting|pause|pausing|stop|interrupt|hand\s+(?:\w+\s+){0,2}back)${E}`;

const UNASKED_MORE = String.raw`${S}(?:do\s+not|don['’]t|never|no\s+need\s+to|needn['’]t|must\s+not)\s+(?:\w+\s+){0,3}?(?:request|seek|get|obtain|wait\s+for)\s+(?:\w+\s+){0,2}?(?:confirmation|approval|permission|consent|sign[\s-]?off|me|the\s+user)${E}|${S}(?:don['’]t|do\s+not|never)\s+ask\s+(?:me|them|the\s+user)\s+(?:again|about)${E}|${S}without\s+(?:\w+\s+)?(?:review|confirmation|approval|permission|consent)${E}|${S}(?:frag\w*\s+(?:\w+\s+){0,3}?(?:nie|nicht)|nie\s+um\s+erlaubnis|ohne\s+(?:zu\s+)?fragen|no\s+(?:debe|debes|tienes\s+que|hace\s+falta)\s+(?:pedir|solicitar)|sin\s+(?:pedir|solicitar)\s+(?:confirmaci[oó]n|permiso)|no\s+hace\s+falta\s+(?:volver\s+a\s+)?preguntar\w*|ohne\s+r[üu]ckfrage\w*|ohne\s+nachfrage|无需再次确认|无需确认|sans\s+(?:re)?demander|senza\s+chiedere|sem\s+perguntar|не\s+переспрашива\w*|не\s+(?:спрашивай|запрашивай)\w*|sans\s+(?:demander|confirmation))${E}|无需(?:确认|询问)|不要(?:询问|请求确认)|不必(?:确认|询问)`;

/** Done for the user without their asking: "even if the user didn't ask for it", "do this automatically". */
const UNREQUESTED = String.raw`${S}even\s+if\s+(?:the\s+user|they|nobody|no\s+one)\s+(?:didn['’]t|did\s+not|doesn['’]t|does\s+not|hasn['’]t)\s+(?:ask|request|want)${E}|${S}(?:do|run|apply)\s+(?:this|it|these)\s+automatically${E}|${S}(?:run|do)\s+this\s+(?:for\s+the\s+user|on\s+their\s+behalf)${E}|${S}they\s+expect\s+it${E}`;

/** A machine to be thrown away, so care is said not to matter: disposable, throwaway, ephemeral. */
const DISPOSABLE = String.raw`${S}(?:disposable|throwaway|throw-away|ephemeral|burner)\s+(?:\w+\s+)?(?:sandbox|container|vm|environment|machine|devcontainer|box|instance)${E}`;

/** Text styled so a reader never sees it: zero size, transparent, pushed off screen. */
const HIDDEN_TEXT = String.raw`font-size\s*:\s*0(?:px)?\s*[;"']|color\s*:\s*transparent|(?:left|top)\s*:\s*-\d{3,}px|opacity\s*:\s*0\s*[;"']|visibility\s*:\s*hidden`;

/** An order that comes before any other tool: "before invoking any other tool, the assistant must first call …". */
const TOOL_ORDER = String.raw`${S}before\s+(?:invoking|using|calling|running)\s+(?:any|this|the)\s+(?:other\s+)?tools?${E}|${S}must\s+(?:first|always)\s+call${E}`;

/** A pseudo-tag that marks text as weighty: <IMPORTANT>, <system>, <admin> (prompts and docs about them use them too). */
const PSEUDO_TAG = String.raw`<\s*(?:important|importante|wichtig|urgent|system|admin|user_message|user_instructions?|user_query|operator|information|instructions?)\s*>`;

/** A stealth adverb on its own ("quietly", "silently"): code does things silently too. */
const QUIET = String.raw`${S}(?:silently|quietly|secretly|covertly|stealthily|discreetly)${E}|${S}silent\s*[=:]\s*true${E}`;

export const PRESSURE_SIGNALS: readonly EvidenceSignal[] = [
  { kind: "conceal", weight: 2, source: CONCEAL },
  { kind: "override_user", weight: 2, source: OVERRIDE_USER },
  { kind: "lifted", weight: 2, source: LIFTED, claim: true },
  { kind: "asking_as_harm", weight: 2, source: ASKING_AS_HARM },
  { kind: "authority", weight: 2, source: AUTHORITY },
  { kind: "address", weight: 1, source: ADDRESS, negatable: false },
  { kind: "trigger", weight: 1, source: TRIGGER },
  { kind: "at_once", weight: 1, source: AT_ONCE },
  { kind: "urgency", weight: 1, source: URGENCY },
  { kind: "unasked", weight: 1, source: UNASKED },
  { kind: "unasked", weight: 1, source: UNASKED_MORE },
  { kind: "unrequested", weight: 1, source: UNREQUESTED },
  { kind: "pseudo_tag", weight: 1, source: PSEUDO_TAG, negatable: false },
  { kind: "quiet", weight: 1, source: QUIET },
  { kind: "hidden_text", weight: 1, source: HIDDEN_TEXT, negatable: false },
  { kind: "tool_order", weight: 1, source: TOOL_ORDER },
  { kind: "disposable", weight: 1, source: DISPOSABLE },
];
