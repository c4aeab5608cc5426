"""The bilingual glossary: one Chinese word for each idea, the source of truth for translators.

`GLOSSARY` lists, for every term the app teaches, the English term, the one Chinese term
the Chinese table (explorer/text/locales/zh.py) uses, a short note in both languages, and the
Chinese variants that must not appear: plain variants (`avoid`), and words that are right
for another idea but wrong for this one (`misuses`, found by their context, e.g. 填充 is
padding, never masked_fill's writing of −1e9). tests/test_glossary.py scans every value of
the Chinese table with `misused_terms`, and checks with `misnamed_pages` that a page is
named by its own title (“训练与解码”页, not “训练”页). Learners see the same list at the
bottom of the sidebar (`sidebar._glossary`), drawn as a plain table: no HTML.

Decisions, so that translators do not reopen them:
- "token" stays "token" in Chinese text (it is what the code, the figures and PyTorch call
  it); it is explained once here as token（词元）, and 词元 is not used elsewhere.
- A term may appear once with its English name in brackets where it is first explained,
  written exactly as "中文（English）", e.g. 教师强制（teacher forcing）.
- Code names stay code: `batch` in a shape such as (batch, seq, d_model), `tie_weights`,
  `HookPoint`, `LayerNorm(x)`, nn.LayerNorm. Only prose uses the Chinese words. The scan
  skips code spans, calls such as LayerNorm(x) and dotted names such as nn.LayerNorm.
- A page is named by its title in the navigation, in quotes: “训练与解码”页.
- Chinese and Latin letters or numbers are separated by a space (token 准确率, 3 个头), except
  in dates written the Chinese way (2026年11月23日) and around a `{placeholder}` that is
  filled with Chinese words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .i18n import TABLES, get_lang, t


@dataclass(frozen=True)
class Misuse:
    """A Chinese word that names another idea, used for this one. It can only be told by its
    context, so `pattern` (a regular expression, case-insensitive) is searched in the whole
    Chinese value, code included (the context may be code, e.g. masked_fill), and only in the
    values whose key starts with `keys` ("" = every value)."""

    shown: str  # as learners see it in the glossary's "not used" column
    pattern: str
    keys: str = ""


@dataclass(frozen=True)
class Term:
    """One glossary entry."""

    en: str  # the English term
    zh: str  # the one Chinese term
    note_en: str  # what it means / how to use it, for learners and translators
    note_zh: str
    avoid: tuple[str, ...] = ()  # Chinese variants that must not be used (case-insensitive)
    english_names: tuple[str, ...] = ()  # allowed in brackets after zh: "zh（name）"
    misuses: tuple[Misuse, ...] = ()  # another idea's word, wrong here (found by context)


GLOSSARY: tuple[Term, ...] = (
    Term("token", "token",
         "One unit the tokenizer cuts the text into: a word, a punctuation mark or a "
         "character. Chinese text keeps the word token.",
         "分词器把文本切成的一个单位：一个词、一个标点或一个字。中文界面直接写 token，"
         "即 token（词元）；不另写“词元”。",
         avoid=("词元",)),
    Term("vocabulary", "词表",
         "The table that gives every token its id.",
         "给每个 token 一个 id 的表。",
         avoid=("词汇表",)),
    Term("source sentence / target sentence", "源句子 / 目标句子",
         "The text the encoder reads / the answer the decoder is trained to write.",
         "编码器读入的文本 / 训练解码器写出的答案。写全“源句子”“目标句子”，不缩成“源句”“目标句”。",
         misuses=(Misuse("源句、目标句（写全：源句子、目标句子）", r"(源|目标)句(?!子)"),)),
    Term("embedding", "词嵌入",
         "The vector a token id is turned into (a row of the embedding table).",
         "token id 变成的向量，即词嵌入表中的一行。"),
    Term("positional encoding", "位置编码",
         "The fixed sine/cosine signal added to the embeddings.",
         "加在词嵌入上的固定的正弦/余弦信号。"),
    Term("query / key / value", "查询 / 键 / 值",
         "The three projections attention compares and mixes.",
         "注意力用来比较和加权求和的三种投影。"),
    Term("head (attention head)", "头（注意力头）",
         "One of the h attentions computed side by side, each d_k wide.",
         "并行计算的 h 个注意力之一，每个宽 d_k。"),
    Term("mask", "掩码",
         "Says which key positions each query may attend to (True / 1 = may attend).",
         "规定每个查询可以关注哪些键的位置（True / 1 = 可以关注）。",
         avoid=("遮罩", "蒙版")),
    Term("subsequent (look-ahead) mask", "后续位置掩码",
         "Keeps each decoder position from seeing the positions after it.",
         "让解码器的每个位置看不到它后面的位置。"),
    Term("blocked (by a mask)", "屏蔽",
         "What a mask does to a key position a query may not attend to: its score becomes −1e9.",
         "掩码对查询不许关注的键位置所做的事：把它的分数写成 −1e9。说“屏蔽”“被屏蔽”。",
         avoid=("遮住", "挡住")),
    Term("later positions", "后面的位置",
         "The positions after a decoder position, which the subsequent mask blocks. English "
         "says later, not future.",
         "解码器某个位置之后的那些位置，后续位置掩码屏蔽的就是它们。不说“未来的位置”。",
         avoid=("未来",)),
    Term("padding", "填充",
         "The <pad> tokens that make the sentences of a batch equally long; the padding "
         "mask is 填充掩码.",
         "用 <pad> 把一批句子补齐到同样长度；对应的掩码叫填充掩码。首次出现可写 "
         "填充（padding）。“填充”只指 padding；masked_fill 把 −1e9 写进分数叫“写入”。",
         avoid=("padding",), english_names=("padding",)),
    Term("masked_fill's fill", "写入",
         "masked_fill writes −1e9 into the blocked scores: in Chinese 写入 −1e9. 填充 is "
         "padding only.",
         "masked_fill 把 −1e9 写进被屏蔽的分数：写作“写入 −1e9”。“填充”只指 padding。",
         avoid=("填成",),
         misuses=(Misuse("填充（指 masked_fill）",
                         r"(masked_fill|1e9)[^。；\n]*填充(?!掩码)|填充(?!掩码)[^。；\n]*"
                         r"(masked_fill|1e9)|约定的填充"),)),
    Term("batch", "批",
         "The sequences trained on in one step. In prose: 一批序列, 批大小; in a shape such "
         "as (batch, seq, d_model) the code name batch stays.",
         "一步训练所用的一组序列。正文写“一批序列”“批大小”；形状 (batch, seq, d_model) "
         "里的 batch 是代码里的名字，保留不译。",
         avoid=("批次", "一个 batch", "随机 batch", "训练 batch"), english_names=("batch",),
         misuses=(Misuse("batch（中文列举里写“批”“批大小”）",
                         r"batch\s*、|、\s*batch|[\u4e00-\u9fff]\s*batch\s*[，。；、]"),)),
    Term("forward pass", "前向传播",
         "Running the model once from its input to its output.",
         "让输入经过模型一次、得到输出的计算。",
         avoid=("前向计算",)),
    Term("teacher forcing", "教师强制",
         "Training the decoder on the correct previous tokens, not on its own outputs.",
         "训练时解码器读入的是正确答案的前文，而不是它自己的输出。",
         avoid=("teacher forcing",), english_names=("teacher forcing",)),
    Term("layer normalisation (LayerNorm)", "层归一化",
         "Normalises each vector, then scales and shifts it. Chinese prose says 层归一化; "
         "code names stay: `LayerNorm(x)`, nn.LayerNorm.",
         "对每个向量做归一化，再缩放和平移。正文写“层归一化”，不把 LayerNorm 当中文词用；"
         "代码名保留：`LayerNorm(x)`、nn.LayerNorm。",
         avoid=("LayerNorm",), english_names=("LayerNorm",)),
    Term("pre-norm", "前置归一化",
         "LayerNorm before each sublayer: x + sublayer(LayerNorm(x)) (The Annotated "
         "Transformer).",
         "层归一化放在每个子层之前：x + sublayer(LayerNorm(x))（The Annotated Transformer "
         "的写法）。",
         avoid=("pre-norm", "pre norm"), english_names=("pre-norm",)),
    Term("post-norm", "后置归一化",
         "LayerNorm after the residual sum: LayerNorm(x + sublayer(x)) (the paper).",
         "层归一化放在残差相加之后：LayerNorm(x + sublayer(x))（论文的写法）。",
         avoid=("post-norm", "post norm"), english_names=("post-norm",)),
    Term("residual connection", "残差连接",
         "The path that adds a sublayer's input to its output.",
         "把子层的输入直接加到它的输出上的通路。",
         avoid=("残差通路", "残差路径")),
    Term("sublayer", "子层",
         "Self-attention, cross-attention or the feed-forward network inside a layer.",
         "一层里的自注意力、交叉注意力或前馈网络。"),
    Term("encoder stack / decoder stack", "编码器 / 解码器",
         "The N encoder layers (decoder layers) one above the other: in Chinese simply the "
         "encoder (decoder), or 编码器的 N 层 where the layers themselves are meant. Not 编码器栈: "
         "栈 reads as the data structure. Do not use 堆叠 as a noun; for the action, say 叠起来.",
         "N 个编码器层（解码器层）一层叠一层，就是整个编码器（解码器）：中文直接说“编码器”"
         "“解码器”，要强调这些层时说“编码器的 N 层”。不说“编码器栈”：“栈”让人想到数据结构。"
         "不要把“堆叠”当名词用；说动作时写“叠起来”。",
         avoid=("堆叠", "编码器栈", "解码器栈")),
    Term("weight tying", "权重绑定",
         "One weight matrix used by several layers (tie_weights).",
         "几个层使用同一个权重矩阵（tie_weights）。",
         avoid=("权重共享", "共享权重"), english_names=("weight tying",),
         misuses=(Misuse("共享、共用（指绑定的权重）",
                         r"(共享|共用)(的|同一个|同一张|一张|这张)?\s*(权重|张量|矩阵|词嵌入表|嵌入表|表)"
                         r"|(模块|层)(之间)?(共享|共用)|共享它"),)),
    Term("hook / hook point", "钩子 / 钩子点",
         "An identity module (HookPoint) where the app captures a tensor.",
         "恒等模块（HookPoint），本应用在这里捕获张量。",
         avoid=("hook 点", "挂钩")),
    Term("broadcasting", "广播",
         "Say it as: 大小为 1 的维度会被广播 (a dimension of size 1 is broadcast).",
         "这样说：大小为 1 的维度会被广播。"),
    Term("label smoothing", "标签平滑",
         "Training towards a smoothed target instead of a one-hot label.",
         "训练目标不是 one-hot 标签，而是平滑后的目标分布。"),
    Term("smoothed target distribution", "平滑后的目标分布",
         "1 − ε on the label, ε shared by the other tokens.",
         "标签上 1 − ε，其余 ε 分给其他 token。",
         avoid=("平滑目标分布", "平滑的目标分布", "平滑分布")),
    Term("(random) seed", "随机种子",
         "The number that fixes the initial weights and the random batches.",
         "决定初始权重和随机抽取的每一批数据的数。",
         avoid=("seed", "种子数")),
    Term("training recipe", "训练方案",
         "The model size and training settings used together (fast recipe: 快速训练方案).",
         "一起使用的模型规模和训练设置（fast recipe：快速训练方案）。",
         avoid=("配方",)),
    Term("model size", "模型规模",
         "How big a model is: N, d_model, h, d_ff (the sidebar's presets).",
         "模型有多大：N、d_model、h、d_ff（侧边栏的预设）。说“模型规模”，不说模型的“大小”。",
         misuses=(Misuse("大小（指模型规模）",
                         r"模型的?大小|(这个|这样的|现在的)大小(?=[和下，。；])"),)),
    Term("greedy decoding", "贪心解码",
         "Always appending the most probable next token.",
         "每一步都接上概率最大的下一个 token。"),
    Term("beam search", "束搜索",
         "Decoding that keeps the k most probable partial answers at every step (the beam) "
         "instead of one.",
         "每一步保留 k 个最可能的部分答案（即“束”）而不是只保留一个的解码方法。",
         avoid=("集束搜索", "波束搜索", "beam search"), english_names=("beam search",)),
    Term("length penalty", "长度惩罚",
         "lp(Y) = ((5 + |Y|) / 6)^α: beam search ranks answers by log P / lp, so longer ones are "
         "punished less for their extra probabilities below 1 (less, not at all).",
         "lp(Y) = ((5 + |Y|) / 6)^α：束搜索按 log P / lp 给答案排序，较长的答案因为多乘了几个"
         "小于 1 的概率而吃的亏会变小（变小，而不是消失）。",
         avoid=("长度罚分", "长度罚项")),
    Term("warm-up", "预热",
         "The first steps, during which the learning rate rises. In Chinese prose: 预热 "
         "3000 步 (warmup stays only as a code or field name: warmup_steps, warmup 400 "
         "inside rate(...)).",
         "训练开始时学习率逐步升高的那些步。正文写“预热 3000 步”；warmup 只作为代码名或"
         "输入框名出现（warmup_steps、rate(...) 里的 warmup 400）。",
         misuses=(Misuse("warmup 3000（正文写“预热 3000 步”）",
                         r"[\u4e00-\u9fff、，；：（]\s*warm-?up\s*\d"),)),
    Term("held-out", "留出",
         "Examples never used in training, kept to measure accuracy.",
         "从不用于训练、留着测量准确率的样本。"),
    Term("(training) example", "样本",
         "One source sequence with its answer, as the model trains or is measured on it.",
         "一个源序列和它的答案，模型就在这样的样本上训练或测量。",
         avoid=("样例",)),
    Term("loss", "损失",
         "The training loss only. In the ablation section, accuracy lost is 准确率下降; a "
         "layout that gives up little 几乎不吃亏.",
         "只指训练的损失。消融一节里准确率的减少叫“准确率下降”，不叫“损失”；“几乎没有代价”"
         "写作“几乎不吃亏”，不写“几乎没有损失”。",
         misuses=(Misuse("损失（指消融后准确率的下降）", r"损失", keys="ko."),
                  Misuse("损失（指代价：“几乎没有损失”）", r"(没有|无|毫无)(什么)?损失"))),
    Term("accuracy", "准确率",
         "The share of answers (or tokens) that are right: token 准确率 with teacher forcing.",
         "答对的答案（或 token）所占的比例；教师强制下按 token 算的叫 token 准确率。",
         avoid=("正确率", "答对率")),
    Term("exact(-sequence) accuracy", "整序列准确率",
         "The share of answers right as a whole, decoded by the model on its own.",
         "模型独立解码时，整个答案完全正确的比例。指这个指标时写“整序列准确率”，不写“完全正确”。",
         avoid=("完全正确率",),
         misuses=(Misuse("完全正确（指整序列准确率）",
                         r"完全正确\s*\{|完全正确的序列(是|占)|的序列完全正确"),)),
    Term("knock-out (ablation)", "消融",
         "Replacing a head's or a sublayer's output by zeros for a few runs, the weights "
         "unchanged, to see what the model loses. Chinese uses the ML papers' word 消融 "
         "(ablation); 敲除 reads as biology (gene knock-out).",
         "在几次运行里把一个头或一个子层的输出换成 0（权重不变），看模型因此少了什么。用论文里"
         "的说法“消融”（ablation）；“敲除”听起来像生物学的基因敲除，“关掉”太口语，不用。",
         avoid=("敲除",), english_names=("ablation",),
         misuses=(Misuse("关掉（指消融一个头或子层）", r"关掉(一个|这个|整个|每个)?(头|子层)"),)),
    Term("one-hot", "one-hot",
         "All probability on one token. Chinese text keeps the word one-hot.",
         "全部概率都在一个 token 上。中文界面直接写 one-hot。",
         avoid=("独热",)),
    Term("date translator", "日期翻译器",
         "The trained model that ships with the app and turns a date into YYYY-MM-DD.",
         "随应用提供的已训练模型，把日期转换成 YYYY-MM-DD。",
         avoid=("翻译模型",)),
    Term("(date) style", "格式",
         "How a date is written: full, long, medium or abbreviated (CLDR's styles).",
         "日期的写法：完整、长、中等或缩写格式（CLDR 的日期格式）。",
         avoid=("样式",)),
    Term("(code) walk-through", "代码讲解",
         "A tutorial that builds the Transformer in code, such as The Annotated Transformer.",
         "一步步用代码搭出 Transformer 的讲解，例如 The Annotated Transformer。",
         avoid=("教程",)),
    Term("checkpoint", "检查点",
         "A saved state_dict of a model.",
         "保存下来的模型 state_dict。"),
)

_CODE_SPAN = re.compile(r"`[^`]*`")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# Code outside backticks: a call's name (LayerNorm(x), rate(...)) or a dotted name (nn.LayerNorm)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_CODE_NAME = re.compile(rf"{_NAME}(?:\.{_NAME})*\(|{_NAME}(?:\.{_NAME})+")
_PAGE_REF = re.compile(r"“([^“”]{1,20})”页")


def misused_terms(text: str, key: str = "") -> list[str]:
    """The glossary's forbidden Chinese variants found in `text` (the Chinese table's value
    for `key`).

    Plain variants (`Term.avoid`) are looked for in the prose: code spans, code names
    (LayerNorm(x), nn.LayerNorm) and `{placeholders}` are skipped, and so is a term's own
    explanation written as "中文（English）" (e.g. 填充（padding）), where the English name is
    allowed. A `Misuse` is looked for in the whole value, when `key` is one it applies to.
    """
    prose = _PLACEHOLDER.sub(" ", _CODE_NAME.sub(" ", _CODE_SPAN.sub(" ", text)))
    for term in GLOSSARY:
        for name in term.english_names:
            prose = re.sub(re.escape(f"{term.zh}（{name}）"), term.zh, prose, flags=re.I)
    lowered = prose.lower()
    found = [v for term in GLOSSARY for v in term.avoid if v.lower() in lowered]
    return found + [m.shown for term in GLOSSARY for m in term.misuses
                    if key.startswith(m.keys) and re.search(m.pattern, text, re.I)]


def misnamed_pages(text: str) -> list[str]:
    """The pages `text` (a Chinese table value) names as “…”页 that are no page's Chinese
    title (the navigation's `nav.*` texts), e.g. “训练”页 for “训练与解码”页. A placeholder
    (“{page}”页) is filled with a title."""
    titles = {title for key, title in TABLES["zh"].items() if key.startswith("nav.")}
    return [name for name in _PAGE_REF.findall(text)
            if name not in titles and not (name.startswith("{") and name.endswith("}"))]


def glossary_rows() -> dict[str, list[str]]:
    """The glossary as table columns, headed and noted in the current language: the term in
    that language first, then the other's (the sidebar's narrow table shows the first whole
    and scrolls the others in beside it), the note, the variants not used."""
    zh = get_lang() == "zh"
    terms = {t("glossary.col_en"): [term.en for term in GLOSSARY],
             t("glossary.col_zh"): [term.zh for term in GLOSSARY]}
    return {
        **dict(reversed(terms.items()) if zh else terms.items()),
        t("glossary.col_note"): [term.note_zh if zh else term.note_en for term in GLOSSARY],
        t("glossary.col_avoid"): ["、".join(term.avoid + tuple(m.shown for m in term.misuses))
                                  for term in GLOSSARY],
    }
