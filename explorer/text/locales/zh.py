"""简体中文界面文字。键与 en.py 相同；`{name}` 占位符由 t() 填入。"""

TEXT: dict[str, str] = {
    # ---- 应用与侧边栏 ----
    "app.title": "Transformer 探索器",
    "sidebar.language": "Language / 语言",
    "sidebar.presenter": "演示模式",
    "sidebar.presenter_help": "放大文字和图表，便于在教室后排看清投影。",

    # ---- 检查点导入面板（explorer/app/import_panel.py） ----
    "sidebar.params_imported": "参数量（你的检查点）",
    "ckpt.title": "查看你自己的检查点",
    "ckpt.wrap": "在句子两边加上 {start} … {end}",
    "ckpt.wrap_note": "这个模型的词表里有 {start} 和 {end}。The Annotated Transformer 的翻译数据"
                      "在每个源句子的两边都加上了它们，用这种数据训练的模型会把不带它们的句子当成"
                      "从没见过的输入。本应用按原样把你的句子交给模型；打开下面的选项就会加上它们。"
                      "自己输入它们是不行的：分词器会在尖括号处把“{start}”拆成几个单独的 token。",
    "ckpt.explain": "上传用 The Annotated Transformer 的 make_model 训练并保存的 state_dict"
                    "（torch.save(model.state_dict(), ...)），或本应用“训练与解码”页导出的检查点；"
                    "最大 {mb} MB。文件以安全方式加载（torch.load 且 weights_only=True），只属于"
                    "你的会话。加载后，各页面展示的是你的模型，而不是侧边栏设置的模型。",
    "ckpt.file": "检查点文件（.pt）",
    "ckpt.h": "h（头数）：本应用导出的文件可留空",
    "ckpt.h_placeholder": "留空：从文件中读取 h",
    "ckpt.h_help": "头数无法从权重的形状推断（W^Q 把所有头放在同一个 d_model x d_model "
                   "矩阵里）。本应用“训练与解码”页导出的检查点记录了 h：这一栏留空即可。对 The "
                   "Annotated Transformer 保存的 state_dict，请填写它的 h（它的 make_model 用 "
                   "8）。",
    "ckpt.vocab": "词表（可选）：.txt 文件，每行一个 token，按 id 顺序",
    "ckpt.vocab_help": "不上传词表时，token 依次命名为 tok0、tok1……，"
                       "你输入的词对模型来说都是未知词。",
    "ckpt.load": "加载检查点",
    "ckpt.loading": "正在加载检查点…",
    "ckpt.using": "正在查看你的检查点：N={N}，d_model={d_model}，h={h}，d_ff={d_ff}，词表大小 "
                  "{src} / {tgt}。",
    "ckpt.forget": "返回侧边栏设置的模型",
    "ckpt.vocab_too_big": "词表文件过大（最大 5 MB）。",
    "ckpt.vocab_not_utf8": "词表文件不是 UTF-8 文本：请存为纯文本，每行一个 token。",
    # show_problems（explorer/app/context.py），供该文件作者应用补丁时使用
    "problems.text": "**你的文本无法使用。** {reason}",
    "problems.longer_than_model": "它需要 {n} 个位置，但你的检查点的位置编码表只覆盖 "
                                  "{max_len} 个位置，而且不是正弦公式算出的表（所以无法扩展）。"
                                  "请把文本缩短到最多 {max_len} 个 token（目标句子要算上 <s>）。",
    "problems.arch": "**无法用这些设置构建模型。** {reason}",
    "problems.source_sentence": "源句子：{reason}",
    "problems.target_sentence": "目标句子：{reason}",
    # transformer/ 中抛出的错误（TokenizeError、ConfigError）：键就是错误的代码
    "tokenize.not_text": "这里需要文本（字符串），收到的却是 {type}。请输入几个词。",
    "tokenize.mode": "没有 {mode} 这种分词方式。请选择 {valid}。",
    "tokenize.max_tokens": "token 数的上限必须是不小于 1 的整数，而不是 {value}。",
    "tokenize.too_many_chars": "这段文本有 {n} 个字符，上限是 {limit}，这样每张图都看得清，"
                               "服务器也不会变慢。请把它缩短。",
    "tokenize.empty": "去掉空格和不可见字符之后，文本是空的。请至少输入一个词。",
    "tokenize.too_many_tokens": "这段文本有 {n} 个 token，上限是 {limit}，这样每张图都看得清，"
                                "服务器也不会变慢。请把它缩短。",
    "config.whole": "{name} 必须是整数；收到的是 {value}。",
    "config.at_least": "{name} 至少是 {low}；收到的是 {value}。",
    "config.choice": "{name} 必须是以下之一：{allowed}；收到的是 {value}。",
    "config.heads": "d_model（{d_model}）必须能被 h（{h}）整除：h 个头各分到 d_k = d_model / h "
                    "维。可以试试 h 取 {heads} 之一。",
    "config.heads_widths": "d_model（{d_model}）必须能被 h（{h}）整除：h 个头各分到 d_k = d_model "
                           "/ h 维。可以试试 h 取 {heads} 之一；也可以改 d_model，可用的值有："
                           "{widths}。",
    "config.even": "d_model 必须是偶数（现在是 {d_model}）：正弦位置编码的每个频率都要一个正弦、"
                   "一个余弦，成对占两维。可以试试 {lower} 或 {upper}。",
    "config.dropout_number": "dropout 必须是 [0, 1) 之间的数；收到的是 {value}。",
    "config.dropout_range": "dropout 必须在 [0, 1) 之间（它是把一个值置零的概率）；收到的是 "
                            "{value}。",
    "config.true_false": "{name} 只能是 True 或 False；收到的是 {value}。",
    "config.tie_all": "tie_weights='all' 把源语言和目标语言的词嵌入表绑定为同一张表，所以两个词表"
                      "必须一样大（现在是 {src} 和 {tgt}）。请改用 tie_weights='decoder'，或者让两"
                      "边共用一个词表。",
    # 术语表（explorer/text/glossary.py），在侧边栏最下面
    "glossary.title": "术语表（English – 中文）",
    "glossary.caption": "本应用对每个概念使用的英文和中文说法。",
    "glossary.col_en": "English",
    "glossary.col_zh": "中文",
    "glossary.col_note": "说明",
    "glossary.col_avoid": "中文里不用",

    # ---- 导航（app.py） ----
    "nav.model": "模型",
    "nav.embeddings": "词嵌入与位置编码",
    "nav.masks": "掩码",
    "nav.attention": "注意力",
    "nav.shapes": "张量形状",
    "nav.train": "训练与解码",

    # ---- 模型页（pages/model.py） ----
    "model.title": "模型",
    "model.intro": "Transformer 是一个**编码器-解码器**（encoder-decoder）结构。编码器一次读入整个"
                   "源句子，把它变成 `memory`：每个源 token 对应一个宽度为 d_model "
                   "的向量。解码器随后逐个 token 地生成目标序列：它既关注自己已经生成的 "
                   "token（掩码自注意力），也关注 `memory`（交叉注意力）；最后由 `generator` "
                   "把每个输出向量变成下一个 token 的对数概率。在代码里这只是一行：`EncoderDecoder"
                   ".forward = decode(encode(src, src_mask), src_mask, tgt, "
                   "tgt_mask)`。本页的所有内容都读取自侧边栏“要查看的模型”中选中的模型：{model}。",
    "model.arch_header": "由你的设置画出的模型结构",
    "model.lengths_known": "src_len = {src_len}（源句子的 token 数）和 tgt_len = "
                           "{tgt_len}（解码器输入的 token 数：`<s>` 加上目标句子）都取自你的句子",
    "model.lengths_unknown": "你的文本暂时还不能用，所以句子长度先用符号表示",
    "model.norm_pre": "**前置归一化（pre-norm）**，The Annotated Transformer 的写法：每个子层计算 "
                      "`x + dropout(sublayer(LayerNorm(x)))`，残差连接绕过层归一化，因此编码器和解"
                      "码器的最后各还需要一个层归一化。",
    "model.norm_post": "**后置归一化（post-norm）**，即论文中的 \"Add & Norm\"：每个子层计算 "
                       "`LayerNorm(x + dropout(sublayer(x)))`，每一层的输出都已经归一化，"
                       "所以编码器和解码器的最后都没有额外的层归一化。",
    "model.arch_caption": "数据自下而上流动。形状写作 (batch, …)，batch = 1；{lengths}。每个 "
                          "⊕ 都是一次残差相加：绕过子层的箭头把子层的输入直接送到它的后面。{no"
                          "rm_text}紫色：每个注意力接收的掩码（True = "
                          "可以关注）。图中没有画出 dropout。论文（§5.4）把它用在每个子层的输"
                          "出上（在残差相加之前），以及词嵌入与位置编码之和上；这个模型和 The "
                          "Annotated Transformer 一样，还对注意力权重和前馈网络的隐藏层做 "
                          "dropout。",
    "model.ln_expander": "用的是哪种层归一化？两个公式，在你的句子上算一遍",
    "model.ln_text": "两个公式的做法相同：先减去向量的均值，再除以一个表示数值分散程度的量，最后用"
                     "两个可学习的向量缩放、平移（本应用里叫 `a_2` 和 `b_2`，`nn.LayerNorm` 里叫 "
                     "`weight` 和 `bias`）。不同之处只在于分散程度怎么算：\n\n- **The Annotated "
                     "Transformer**（本应用的 `LayerNorm`，“std + 1e-6”）：(x − mean) / (std + "
                     "1e-6)。std 是*无偏*标准差（平方和除以 d_model − 1），eps 加在标准差上，在平"
                     "方根外面。\n- **PyTorch 的 `nn.LayerNorm`**（`F.layer_norm`）：(x − mean) / "
                     "√(var + 1e-5)。var 是*有偏*方差（除以 d_model），eps 在平方根里面。\n\n拿第"
                     "一个源 token 进入第一个编码器层时的向量算一算（d_model = {d}）：均值 {mean}"
                     "，无偏标准差 {su}，有偏标准差 {sb}。有偏标准差是无偏标准差的 √((d_model − "
                     "1)/d_model) = {ratio} 倍，所以 `nn.LayerNorm` 的输出大约大 {pct}；在这个向量"
                     "上，两者最多相差 {diff}。两种写法都对，因为可学习的缩放能把这个倍数吸收掉；"
                     "不过，用一种公式训练出来的权重，换到另一种公式上算出的数会稍有不同。这个模型"
                     "用的是 **{current}**（侧边栏的“教学选项”）。",
    "model.ln_annotated": "std + 1e-6（The Annotated Transformer）",
    "model.ln_standard": "nn.LayerNorm（PyTorch）",
    "model.alt_expander": "你可能见到的另一种结构：不带偏置的投影（某篇代码讲解里的写法）",
    "model.alt_intro": "有些代码讲解用单独的、不带偏置的 `W_q`、`W_k`、`W_v`、`W_o` 层，PyTorch 的"
                       "层归一化公式，以及不带偏置、直接输出 logits 的输出层，搭出同样的结构。按你"
                       "现在的模型规模，它与这个模型的区别如下（第二列：另一种结构少了的参数）：",
    "model.alt_col_part": "部分",
    "model.alt_col_here": "这个模型（The Annotated Transformer）",
    "model.alt_col_there": "不带偏置的结构",
    "model.alt_col_params": "少了的参数",
    "model.alt_part_attn": "注意力投影",
    "model.alt_here_attn": "linears：4 个带偏置的 Linear(d_model, d_model)",
    "model.alt_there_attn": "W_q、W_k、W_v、W_o：Linear(d_model, d_model, bias=False)",
    "model.alt_part_ln": "层归一化",
    "model.alt_there_ln": "有偏方差，eps = 1e-5 在平方根之内（nn.LayerNorm 的公式）",
    "model.alt_part_gen": "输出层",
    "model.alt_here_gen": "带偏置的 Linear，然后 log_softmax",
    "model.alt_there_gen": "不带偏置的 Linear，输出 logits（由损失函数做 softmax）",
    "model.alt_part_names": "名字",
    "model.alt_here_names": "a_2、b_2；sublayer[0]、sublayer[1]、sublayer[2]",
    "model.alt_there_names": "gamma、beta；sublayer_attn、sublayer_ffn……",
    "model.alt_why": "**为什么两种都行。** 键的偏置给一个查询那一行的每个分数都加上 q·b_k，对每个"
                     "键加的都一样，而 softmax 不受整行加同一个常数的影响。在你的句子上，去掉编码"
                     "器第 0 层的键偏置，它的注意力权重最多只变 {key}（舍入误差），而去掉查询偏置"
                     "，权重最多会变 {query}。值的偏置让每个头的输出都移动同一个固定向量（权重之和"
                     "为 1），输出投影的偏置可以吸收它。所以不带偏置的结构几乎不吃亏，在这里还少"
                     "了 {fewer} 个参数。论文把投影写成不带偏置项的矩阵 W，但没有说它的代码是否用"
                     "了偏置；The Annotated Transformer 的 `nn.Linear` 层是带偏置的。",
    "model.need_text": "等源句子和目标句子都能正常使用，这里就会显示模块树、参数量和实时形状。",
    "model.tree_header": "模块树",
    "model.tree_intro": "`print(model)` 显示的内容：`encoder.layers` 中 {N} 个 `EncoderLayer` "
                        "的副本，`decoder.layers` 中 {N} 个 `DecoderLayer`，两个词嵌入 "
                        "`Sequential`（先 `Embeddings` 后 `PositionalEncoding`），以及 "
                        "`Generator`。",
    "model.tree_expander": "print(model)：共 {lines} 行",
    "model.tree_caption": "这里隐藏了钩子点：它们是恒等模块（`HookPoint`），本应用用它们捕获其他"
                          "页面上展示的张量；它们没有参数，也不改变任何计算。",
    "model.params_header": "参数",
    "model.metric_total": "参数总量（绑定的张量只算一次）",
    "model.metric_total_help": "每个参数张量只算一次，即使它绑定在两个模块上。",
    "model.metric_enc": "编码器",
    "model.metric_dec": "解码器",
    "model.metric_embed": "词嵌入 + 生成器（词表大小 {vocab}）",
    "model.col_component": "组件",
    "model.col_parameters": "参数量",
    "model.col_share": "占比",
    "model.tie_pair": "`{b}` 与 `{a}` 是同一个张量",
    "model.tie_sep": "；",
    "model.ties": "权重绑定：{pairs}（tie_weights = {tie}）。每张绑定在一起的表只计一次，"
                  "记在它第一次出现的名字下。",
    "model.paper_note": "编码器和解码器共有 {stacks} 个参数（{share}）。词嵌入表和生成器随词表大小"
                        "增长，{vocab_text}。如果使用论文中约 {paper_vocab} 个 token 的共享词表，"
                        "并把两个词嵌入和输出层绑定为同一张表（论文 3.4 节），这个结构大约有 "
                        "{paper_total}M 个参数。",
    "model.vocab_sentences": "而这里的词表只有你句子中的 {vocab} 个 token（含 4 个特殊 token）",
    "model.vocab_checkpoint": "你的检查点的源词表有 {src} 个 token，目标词表有 {tgt} 个",
    "model.paper_base_note": "这就是论文的 base 模型：仅编码器和解码器就有 {stacks}M 个参数，"
                             "绑定的那张 {paper_vocab} × {d_model} 的表再加 {table}M，总计 "
                             "{paper_total}M，接近论文表 3 中报告的 {paper_params}。",
    "model.every_param": "所有参数张量",
    "model.col_name": "名称",
    "model.col_shape": "形状",
    "model.col_count": "数量",
    "model.every_param_caption": "共 {n} 个不同的张量。`named_parameters()` 对绑定的张量只列出"
                                 "一次，使用它最先注册时的名字。",
    "sized.expander": "换成你自己的大小：源词表和目标词表各自的大小，以及 d_v",
    "sized.intro": "有一篇代码讲解用论文的基础尺寸搭模型，源词表 500 个 token，目标词表 1000 个"
                   " token，还把 d_v（每个头的值向量宽度）单独作为一个参数（论文取 d_v = d_k = "
                   "d_model / h = 64）。任意填写这些大小：模型由同一份代码在 PyTorch 的 meta "
                   "设备上构建，每个参数都有形状，却不占内存。",
    "sized.src_vocab": "源词表大小",
    "sized.tgt_vocab": "目标词表大小",
    "sized.N": "N（每个栈的层数）",
    "sized.d_model": "d_model",
    "sized.h": "h（头数）",
    "sized.d_ff": "d_ff",
    "sized.d_v": "d_v（每个头的值向量宽度）",
    "sized.batch": "批大小（序列数）",
    "sized.length": "每个序列的 token 数",
    "sized.col_what": "是什么",
    "sized.col_step": "编码器第 0 层的自注意力，逐步来看",
    "sized.w.src_embed": "源嵌入：每个源 token 一行",
    "sized.w.tgt_embed": "目标嵌入：每个目标 token 一行",
    "sized.w.w_q": "W^Q：d_model → h·d_k",
    "sized.w.w_k": "W^K：d_model → h·d_k",
    "sized.w.w_v": "W^V：d_model → h·d_v",
    "sized.w.w_o": "W^O：h·d_v → d_model",
    "sized.w.generator": "生成器：每个目标 token 一行",
    "sized.step.hook_q": "Q，拆成 h 个 d_k 维的头",
    "sized.step.hook_k": "K，拆成 h 个 d_k 维的头",
    "sized.step.hook_v": "V，拆成 h 个 d_v 维的头",
    "sized.step.hook_scores": "分数 Q·Kᵀ / √d_k：查询位置 × 键位置",
    "sized.step.hook_z": "权重 · V，每个头各算一次",
    "sized.step.hook_concat": "各个头并排拼接：h·d_v 列",
    "sized.step.hook_out": "W^O：变回 d_model",
    "sized.result": "logits 的形状是 **{logits}**：每个位置为 {tgt_vocab} 个目标 token 各打一个分。"
                    "生成器的大小由目标词表决定；源词表只决定编码器那张嵌入表的大小。d_k = {d_k}、"
                    "d_v = {d_v} 时，查询和键仍在 d_k 维里相乘；d_v 只改变每个头传下去的宽度，"
                    "{h} × {d_v} = {hd_v} 列，再由 W^O 映射回 d_model = {d_model}。一共 {params} "
                    "个参数。`nn.Linear` 的权重按 (out_features, in_features) 存放。",
    "model.code_header": "阅读代码",
    "model.code_intro": "从 `transformer/model.py` 中选一个组件：左边是它的源代码，右边是你的"
                        "句子经过模型时它产生的张量。",
    "model.component_label": "组件",
    "model.live_shapes": "实时形状",
    "model.make_model_caption": "`make_model` 负责构建各个模块；下面是调用它时用的参数值"
                                "（`TransformerConfig`）。这些页面上未训练的模型并不是 "
                                "`make_model` 自己随机出来的那一个：编码器和解码器的各层由 "
                                "`seed` 和一个占位词表生成，每个 token 的嵌入行和输出行都由"
                                "这个 token 的文本决定随机种子，所以同一个词在任何句子里都是"
                                "同一个向量。在脚本里用 `explorer.core.runs.page_model(cfg, "
                                "seed, vocab)` 就能重建它。",
    "model.module_list": "`clones` 把各层放在一个 `nn.ModuleList` 里，而 `nn.ModuleList` 就是 "
                         "`nn.Module`：`issubclass(nn.ModuleList, nn.Module)` 的结果是 {truth}"
                         "（一篇代码讲解说它不是）。正因为如此，各层的权重才属于模型：这部分有 "
                         "{registered} 个参数；如果把这 {n} 层放在普通的 Python 列表里，"
                         "`parameters()` 和 `state_dict()` 只能找到 {in_a_list} 个。",
    "model.col_argument": "参数",
    "model.col_value": "值",
    "model.shapes_caption": "batch = 1，src_len = {src_len}，tgt_len = {tgt_len}，d_model = "
                            "{d_model}，h = {h}，d_k = {d_k}，d_ff = {d_ff}。张量名写作"
                            "“钩子 · 模块路径”（在 `run_with_cache` 的缓存中，它的键是 "
                            "`path.hook`）。对于每一层都重复出现的组件，这里只显示第 0 层；"
                            "“张量形状”页列出了全部张量。",
    "model.col_tensor": "张量",
    "model.col_dims": "维度",
    "model.col_operation": "运算",

    # ---- 词嵌入与位置编码页（pages/embeddings.py） ----
    "emb.title": "词嵌入与位置编码",
    "emb.intro": "注意力本身把输入当作一个*集合*：打乱词的顺序，每个 token 得到的结果完全相同，"
                 "只是顺序也跟着打乱。因此 Transformer 在每个 token 的词嵌入上加上一个"
                 "**位置信号**。它不是学出来的：第 2i 维是位置的正弦，第 2i+1 维是位置的余弦，"
                 "波长从 2π 到 10000·2π 按几何级数增长。",
    "emb.curves_header": "位置编码曲线",
    "emb.d_model_label": "绘图用的 d_model",
    "emb.positions_label": "位置数",
    "emb.odd_d_model": "d_model 必须是偶数（正弦和余弦成对出现）：{odd} 已向上取为 {d_model}。",
    "emb.dims_label": "维度",
    "emb.curves_title": "d_model = {d_model} 时的位置编码",
    "emb.curves_caption": "使用默认值（d_model = 20，第 4–7 维，100 个位置）时，这就是 The "
                          "Annotated Transformer 中的那张图：每两维对应一个频率，维度越高，"
                          "波长越长。",
    "emb.steps_expander": "d_model = {d_model} 时逐步计算公式（按一篇代码讲解的打印方式）",
    "emb.steps_text": "和那篇代码讲解一样取 max_len = {max_len}：`position` 是 ({max_len}, 1)；"
                      "`div_term = exp(arange(0, d_model, 2) · (−ln 10000 / d_model))` 有 {half} "
                      "个值；`product = position * div_term` 广播成 ({max_len}, {half})；"
                      "`pe[:, 0::2] = sin(product)` 和 `pe[:, 1::2] = cos(product)` 填满一个 "
                      "({max_len}, {d_model}) 的表。下面是它的前三行、后三行和前三列、后三列，"
                      "和 `print(pe)` 显示的一样：",
    "emb.steps_caption": "d_model = 68 时，前三行和那篇讲解打印的数一个不差。可它打印出的形状是 "
                         "(1024, 68)，最后三行却不是第 {row} 行和它上面两行：它们以 {first} = "
                         "sin(49,997) 开头，是一个 50,000 个位置的表的最后三行，而第 {row} 行以 "
                         "sin({row}) = {last} 开头。它别处的模型用的是 d_model = 512 和 T = 4 个 "
                         "token，而不是它打印出来的 68 和 3。",
    "emb.table_header": "完整的位置编码表",
    "emb.table_caption": "左边的列随位置变化很快，右边的列变化很慢：就像计数器的各个数位，"
                         "它们合在一起让每个位置都有独一无二的模式。",
    "emb.sim_header": "哪些位置彼此相似",
    "emb.sim_caption": "PE(p)·PE(q) 在对角线上最大，并且只取决于距离 |p − q|：相邻的位置编码"
                       "相似，不论它们在句子的什么地方。",
    "emb.shift_header": "为什么 PE(pos + k) 是 PE(pos) 的线性函数",
    "emb.shift_text": "对某一个频率 w，由和角公式可得 sin(w(p+k)) = sin(wp)·cos(wk) + "
                      "cos(wp)·sin(wk)，cos(w(p+k)) = cos(wp)·cos(wk) − sin(wp)·sin(wk)。系数 "
                      "cos(wk) 和 sin(wk) 只与 k 有关，与 p 无关。所以一个矩阵 "
                      "M_k（对每一对正弦/余弦做一次 2×2 旋转）就能把*任意*位置向前移动 k "
                      "步。论文（§3.5）选用正弦函数，是因为它*推测*这能让模型容易学会按相对位"
                      "置来关注；这个恒等式是精确成立的，但模型是否利用它，要看训练。",
    "emb.k_label": "偏移量 k",
    "emb.shift_metric": "所有位置上 |M_k·PE(pos) − PE(pos+k)| 的最大值",
    "emb.shift_caption": "在数值上为零：同一个矩阵对每个位置都成立。",
    "emb.mistake_divide": "**一个常见错误：除以 √d_model。** 有些代码讲解说词嵌入要*除以* √d_model"
                          "；论文（§3.4）和 The Annotated Transformer 都是*乘以*。在你的句"
                          "子上（d_model = {d_model}），词嵌入的平均绝对值乘以时是 {times}"
                          "，除以时是 {divided}，而与它相加的位置编码是 {pe}：如果除以，词"
                          "本身大约只有位置的 1/{ratio}，相加之后几乎看不出是哪个词。",
    "emb.tokens_header": "你的 token：词嵌入 + 位置编码",
    "emb.not_scaled": "（未缩放）",
    "emb.tokens_text": "源 token 先经过 `Embeddings`（{lookup}），再由 `PositionalEncoding` "
                       "加上本模型 d_model = {d_model} 的正弦表中的第 *pos* 行（公式与上面的表"
                       "相同，上面的表按你在那里选的 d_model 绘制）。随后是 dropout{dropout}",
    "emb.lookup_scaled": "查表，然后 × √d_model = √{d_model} = {sqrt}",
    "emb.lookup_unscaled": "查表，不缩放：这个模型不乘 √d_model",
    "emb.dropout_train": "——**训练模式已打开，因此一部分值被置零，其余的值被放大**。",
    "emb.dropout_eval": "（在评估模式下关闭）。",
    "emb.embedding_scaled": "词嵌入 {scale}",
    "emb.positional_encoding": "位置编码",
    "emb.sum_title": "两者之和：编码器收到的输入",
    "emb.embedding_raw": "词嵌入（原始值）",
    "emb.why_scale": "为什么要乘以 √d_model？这个模型的词嵌入表里的值很小：这里绝对值最大为 "
                     "{bound}。（The Annotated Transformer 的 `make_model` 用 Xavier 初始化 "
                     "vocab × d_model 的表，取值范围是 ±√(6/(vocab + d_model))：对这个模型的 "
                     "{vocab} 个 token 和 d_model = {d_model}，就是 ±{xavier}。）论文和 The "
                     "Annotated Transformer 都没有说明为什么要缩放；一种常见的解释是：缩放后词"
                     "嵌入与位置编码（取值在 [−1, 1] 之间）大小相当，位置信号就不会淹没词本身"
                     "的信息。在侧边栏的教学选项中关闭缩放，可以看到两者的差别。重复出现的词有"
                     "相同的词嵌入，但位置不同，所以它们的和也不同。",

    # ---- 掩码页（pages/masks.py） ----
    "mask.title": "掩码",
    "mask.intro": "掩码规定了每个查询（query）位置可以关注哪些键（key）位置。在本应用的代码中（与 "
                  "The Annotated Transformer 相同），**True / 1 表示*可以关注***，注意力在 "
                  "softmax 之前执行 `scores.masked_fill(mask == 0, -1e9)`，于是被屏蔽的位置权重为 "
                  "exp(−1e9)，在 float32 下正好是 0（见下文），前提是这一行还有可以关注的键。如果"
                  "一行的键全被屏蔽，它的分数全是同样的 −1e9，softmax 会把权重平均分给它的 n 个键，"
                  "每个 1/n（下文的常见错误里就有这样的一行）。掩码有两种：**填充掩码**屏蔽 "
                  "`<pad>` token，它们只用来把一批（batch）句子补齐到相同长度；**后续位置掩码**（s"
                  "ubsequent mask）阻止解码器看到后面的位置。",
    "mask.sub_header": "后续位置（look-ahead）掩码",
    "mask.sub_text": "第 *i* 行是负责预测下一个 token 的解码器位置，它只能关注位置 0..*i*。"
                     "训练时整个目标序列一次性输入（教师强制），如果没有这个掩码，位置 *i* "
                     "就能直接读到它要在位置 *i*+1 预测的那个词。",
    "mask.size_label": "掩码的大小",
    "mask.size_placeholder": "你的句子：{n}",
    "mask.size_sentence": "你的解码器输入的长度（{n}）",
    "mask.sub_beyond": "从位置 {first} 起已超出你的解码器输入（共 {first} 个 token）："
                       "这些位置没有 token，所以标为 {first}:{none} 这样的形式。掩码只取决于"
                       "它的大小。",
    "mask.size_help": "留空：解码器输入（`<s>` 加目标句子）的每个位置各占一行一列。输入一"
                      "个大小（1–32）就能单独看这个掩码，比如代码讲解里常打印的 5 或 20；"
                      "它只取决于大小。",
    "mask.sub_caption": "形状 (1, {size}, {size})：{total} 个查询–键对中有 {allowed} 个可"
                        "以关注，即对角线及其下方，共 {size}·({size} + 1)/2 个。The Annotated"
                        " Transformer 用 `triu(ones, k=1) == 0` 构造同一个矩阵。",
    "mask.pad_header": "填充（padding）与组合后的目标掩码",
    "mask.pad_text": "同一批中的句子长度不同，较短的句子用 `<pad>`（id 0）补齐。`Batch` 构造 "
                     "`src_mask = (src != pad).unsqueeze(-2)`，形状为 (batch, 1, src_len)："
                     "每个句子一行，广播到每个查询和每个头。对目标序列，"
                     "它把填充掩码和后续位置掩码结合起来：`tgt_mask = (tgt != pad).unsqueeze(-2) & "
                     "subsequent_mask(T)`，形状为 (batch, T, T)。",
    "mask.len_label": "句子 {name} 的长度",
    "mask.src_mask_title": "src_mask，形状 {shape}",
    "mask.row_sentence": "句子",
    "mask.col_position": "位置（token）",
    "mask.pad_caption": "每一行是一个句子：1 = 真实的 token，0 = 填充。长度为 3 和 4 "
                        "时，这正是代码讲解中的例子：[1 1 1 0] 和 [1 1 1 1]。",
    "mask.cross_mask": "解码器的交叉注意力（`src_attn`）用的也是这个 `src_mask`，而不是一篇代码讲解"
                       "里写的全 1 掩码：如果全是 1，较短句子的每个目标位置也会去关注源句子的填充"
                       "（这里是 {pads} 个 `<pad>` 位置）。",
    "mask.tgt_title": "tgt_mask[{i}]\n{name}，长度 {n}",
    "mask.tgt_caption": "tgt_mask 的形状为 {shape}。在较短的句子中，填充位置对应的列在每一行都是 "
                        "0；填充位置对应的行仍然关注真实的 token，它们的预测会被损失函数直接忽略。",
    "mask.heads_text": "在 `MultiHeadedAttention` 内部，`mask.unsqueeze(1)` "
                       "增加了一个头的维度：编码器的掩码变为 (batch, 1, 1, "
                       "src_len)，解码器的变为 (batch, 1, T, T)。大小为 1 "
                       "的维度会被广播：每个头（对编码器来说还有每个查询行）使用同一个掩码。",
    "mask.mistake_src": "一个常见错误：把解码器自注意力的掩码叫作“源注意力掩码”。解码器自注意力用"
                        "的是 `tgt_mask`：它同时屏蔽填充和后面的位置，每个句子一个 T × T 的矩阵。"
                        "`src_mask`（形状 (batch, 1, S)）是给编码器自注意力和解码器交叉注意力用的"
                        "（交叉注意力在 The Annotated Transformer 里叫 `src_attn`）。要是解码器自"
                        "注意力拿到的是 `src_mask` 这种只管填充的掩码，你的解码器输入有 T = {T} 个"
                        "位置，就会有 {future} 个查询–键对能看到后面的位置，而后续位置掩码要屏蔽的"
                        "正是这些。",
    "mask.effect_header": "掩码对分数和 softmax 的作用",
    "mask.effect_yours": "解码器自注意力，第 0 层，第 0 个头，使用你的目标句子：",
    "mask.effect_random": "随机分数（修正上面的设置后即可看到你自己句子的分数）：",
    "mask.effect_text": "没有掩码时，每一行把权重分配到所有位置上，包括后面的位置。加上掩码后，被"
                        "屏蔽的分数变为 −1e9，softmax 给它们的权重是 0（在 float32 下正好是 "
                        "0，见下文），每行剩下的权重重新归一化，和为 "
                        "1。之所以用一个很大的负数而不是 −∞，是为了让*所有*键都被屏蔽的行不会产生 "
                        "NaN：",
    "mask.seed_example": "有一篇代码讲解在同一个输入上演示了这两种情况：q = k = v = 4 个 token"
                         " 的词嵌入（乘以 √d_model）加位置编码，d_model = 512，不做投影。这里用同"
                         "样的方法计算：",
    "mask.no_mask": "没有掩码",
    "mask.all_blocked": "所有键都被屏蔽",
    "mask.key_col": "键 {j}",
    "mask.none_caption": "每一行与自己的分数平均为 {own}，与其他位置的分数（绝对值）平均为 "
                         "{other}：一个向量与自己比较得到 |x|² / √d_model，而 x 已经乘过 "
                         "√d_model。所以 softmax 在对角线上给出 {diag}（保留四位小数）：每个"
                         "位置只关注它自己。",
    "mask.all_caption": "均匀的权重，4 个键各为 {weight}：所有分数都同样是 −1e9。",
    "mask.inf_caption": "如果像一篇代码讲解那样改写入 −∞（`masked_fill(mask == 0, "
                        "float('-inf'))`），同一行就变成 [{row}]：exp(−∞ − (−∞)) 不是一个数，"
                        "而 NaN 会传给由它算出的一切，包括损失。",
    "mask.mistake_header": "一个常见错误：按另一种约定写入 −1e9",
    "mask.mistake_text": "有些代码讲解像本应用一样构造由 1 组成的下三角掩码，却按另一种约定用 "
                         "`scores.masked_fill(mask == 1, -1e9)` 写入 "
                         "−1e9。这样被屏蔽的是对角线及其之前的所有位置，每个位置只能看它后面的位置"
                         "：恰恰是掩码本来要禁止的；而且训练损失照样下降，因为模型现在能直接读到答"
                         "案。下面用“{section}”一节里同样的分数，按这种方式写入 −1e9。",
    "mask.mistake_title": "masked_fill(mask == 1, -1e9) 之后的 softmax：只剩下后面的位置",
    "mask.mistake_caption": "在这些分数上算出：第 0 行本应只关注它自己，现在却把 {first} "
                            "的权重给了后面的位置；最后一行的所有键都被屏蔽，所以它在 {n} "
                            "个位置上各分到 {last}（1/{n} = {uniform}）。对这个掩码，应当用 "
                            "`masked_fill(mask == 0, -1e9)` 写入。",
    "mask.conv_header": "同一个掩码的两种约定",
    "mask.conv_text": "有些代码讲解存储的是相反的含义：**1 = 被屏蔽**（不许关注这个位置），写作 "
                      "`scores.masked_fill(mask == 1, -1e9)`。它们的后续位置掩码在对角线*上方*是 "
                      "1。两者描述的是同一条规则；关键是掩码与 `masked_fill` "
                      "的条件要一致。PyTorch 自己两种都用：`nn.MultiheadAttention` 的布尔掩码 "
                      "True = *不允许*，而 `F.scaled_dot_product_attention` 的布尔掩码 True = "
                      "*参与注意力*（与本应用相同）。",
    "mask.conv_this_app": "True/1 = 可以关注（本应用）",
    "mask.conv_other": "1 = 被屏蔽（另一种约定）",
    "mask.conv_caption": "两张图颜色含义相同（蓝色 = 可以关注），只有存储的数字不同。",

    # ---- 张量形状页（pages/shapes.py） ----
    "shapes.title": "张量形状",
    "shapes.intro": "模型为你的句子计算的每一个张量，按计算顺序排列。大多数张量的形状保持为 "
                    "**(batch, seq, d_model)**：每个子层读写的向量宽度相同，残差连接才能把它们"
                    "相加。在注意力内部，这个宽度被拆分成 **h 个宽度为 d_k 的头**，分数的形状是 "
                    "**(batch, h, q_len, k_len)**。",
    "shapes.part": "部分",
    "shapes.layer": "层",
    "shapes.all": "全部",
    "shapes.attn_only": "只看注意力内部",
    "shapes.caption": "显示 {shown} / {total} 个张量 · batch = 1，src_len = {src_len}，tgt_len = "
                      "{tgt_len}，d_model = {d_model}，h = {h}，d_k = {d_k}，d_ff = {d_ff}。"
                      "选中一行即可查看它的数值。",
    "shapes.examples_expander": "代码讲解里的例子：批大小为 2 的多头注意力，48 个句子组成的一批，"
                                "以及 (30, 8, 33, 64) 上的注意力",
    "shapes.mha_example": "**批大小为 {batch} 的多头自注意力。** 本应用的 `MultiHeadedAttention(h="
                          "{h}, d_model={d_model})` 读入 {batch} 个序列，每个序列有 {seq} "
                          "个随机向量、每个向量 {d_model} 个数，即输入 (batch, seq, d_model)"
                          " = ({batch}, {seq}, {d_model})，输出的形状与输入相同。中间，{h}"
                          " 个头各自在每个位置上处理 d_k = {d_model} / {h} = {d_k} 个数：",
    "shapes.batch_example": "**一个训练用的 `Batch`，共 {batch} 个句子。** 源句子填充到最"
                            "长的 {src_len} 个 token：src ({batch}, {src_len})；目标句子填"
                            "充到 {tgt_len}：tgt ({batch}, {tgt_len})。为了教师强制，`Batch(src,"
                            " tgt)` 把目标句子错开一位（解码器输入去掉最后一个 token，标签"
                            "去掉第一个），所以两者都有 {t_len} 个位置，目标掩码是每个句子"
                            "一个 {t_len} × {t_len} 的矩阵：",
    "shapes.batch_example_caption": "ntokens = {ntokens}：{labels} 个标签中不是填充的那些"
                                    "（这里除第一个句子外，每个句子末尾都有填充）。损失要"
                                    "除以它。",
    "shapes.col_size": "形状",
    "shapes.col_what": "含义",
    "shapes.ex.x": "输入：自注意力里查询、键和值都是它",
    "shapes.ex.hook_q": "查询：投影后拆成多个头 (batch, h, seq, d_k)",
    "shapes.ex.hook_k": "键：投影后拆成多个头",
    "shapes.ex.hook_v": "值：投影后拆成多个头",
    "shapes.ex.hook_scores": "Q·Kᵀ / √d_k：每个头里每个查询–键对一个分数",
    "shapes.ex.hook_masked_scores": "加掩码之后的分数（这里没有掩码：不变）",
    "shapes.ex.hook_pattern": "对键做 softmax：注意力权重",
    "shapes.ex.hook_z": "权重乘以 V，每个头一份",
    "shapes.ex.hook_concat": "把各个头重新并排拼起来 (batch, seq, h·d_k)",
    "shapes.ex.hook_out": "输出投影 W_O：形状与输入相同",
    "shapes.ex.src": "源句子的 id，已填充",
    "shapes.ex.src_mask": "真实源 token 处为 True：(batch, 1, src_len)，在查询维度上广播",
    "shapes.ex.tgt": "解码器输入：去掉最后一个 token 的目标句子",
    "shapes.ex.tgt_y": "标签：去掉第一个 token 的目标句子",
    "shapes.ex.tgt_mask": "键不是填充、也不在后面的位置时为 True，每个句子一个矩阵",
    "shapes.col_part": "部分",
    "shapes.col_layer": "层",
    "shapes.col_sublayer": "子层",
    "shapes.col_tensor": "张量",
    "shapes.col_shape": "形状（带维度名）",
    "shapes.col_operation": "运算",
    "shapes.col_full_name": "完整名称",
    "shapes.download_csv": "把表格下载为 CSV",
    "shapes.head": "头",
    "shapes.masked_caption": "空白的格子已按掩码写入 −1e9。",
    "shapes.split_header": "拆分成多个头，再拼接回去",
    "shapes.split_text": "`linears[0](x)` 得到 (batch, seq, d_model = {d_model})。"
                         "`.view(batch, -1, h, d_k)` 把每一行重新解释为 {h} 段、每段 {d_k} 个数，"
                         "`.transpose(1, 2)` 把头的维度移到前面：(batch, h, seq, d_k)，这样每个"
                         "头独立地计算注意力。注意力之后，"
                         "`.transpose(1, 2).contiguous().view(batch, -1, h * d_k)` 把它还原："
                         "第 *j* 个头的输出填入第 *j*·d_k 到 (*j*+1)·d_k 列。",
    "shapes.qkv_seq": "有一篇代码讲解把 Q、K、V 写成 batchsize × d_model。其实它们都还有一个"
                      "序列维：在编码器第 0 层，进入注意力（也是出来）的张量是 {x}，拆成多个头"
                      "之后 Q 是 {q}，分数 {scores} 为每一对位置各给一个数；没有位置这一维的 Q "
                      "给不出这些数。另一篇讲解在 `MultiHeadedAttention.forward` 开头的注释里说 "
                      "query、key、value 已经是 (batch, h, seq, d_k)：其实 forward 收到的是三维的 "
                      "{x}，要到第 1 步 `linears[i](x).view(batch, -1, h, d_k).transpose(1, 2)` "
                      "之后才变成四维的 {q}。",
    "shapes.split_caption": "左：每个头的输出 p_attn @ V，每个头的形状为 (seq, d_k)。右：同样的数"
                            "经过 transpose + view 之后，形状为 (seq, d_model)，还没有乘 W^O；"
                            "黑线标出每个头的列在哪里结束。两边的块完全相同：拼接只是移动数字，"
                            "注意力之前的拆分就是反方向的同一个移动。显示哪一个注意力由上面选择的"
                            "部分和层决定（两者都是“全部”时显示编码器第 0 层）。",
    "shapes.too_many_heads": "{h} 个头太多，无法并排画出；把 h 设为 ≤ 16 即可看到拆分过程。",
    "shapes.split_which": "{kind}，第 {layer} 层：{module}",

    # ---- 模型描述（explorer/core/introspect.py） ----
    "intro.group.src_embed": "源语言词嵌入",
    "intro.group.tgt_embed": "目标语言词嵌入",
    "intro.group.generator": "生成器（输出层）",
    "intro.group.enc_self_attn": "编码器自注意力",
    "intro.group.enc_ff": "编码器前馈网络",
    "intro.group.enc_norms": "编码器层归一化",
    "intro.group.dec_self_attn": "解码器自注意力",
    "intro.group.dec_cross_attn": "解码器交叉注意力",
    "intro.group.dec_ff": "解码器前馈网络",
    "intro.group.dec_norms": "解码器层归一化",
    "intro.comp.Embeddings": "把 token id 变成向量，再乘以 √d_model",
    "intro.comp.PositionalEncoding": "加上固定的正弦/余弦位置信号",
    "intro.comp.attention": "缩放点积注意力",
    "intro.comp.MultiHeadedAttention": "h 个头并行计算，再乘以 W^O",
    "intro.comp.PositionwiseFeedForward": "两个线性层，中间是 ReLU",
    "intro.comp.LayerNorm": "对每个向量做归一化，再缩放和平移",
    "intro.comp.SublayerConnection": "残差连接 + 层归一化（前置或后置）",
    "intro.comp.EncoderLayer": "自注意力 + 前馈网络",
    "intro.comp.DecoderLayer": "掩码自注意力 + 交叉注意力 + 前馈网络",
    "intro.comp.Encoder": "N 个编码器层 + 最后的层归一化",
    "intro.comp.Decoder": "N 个解码器层 + 最后的层归一化",
    "intro.comp.Generator": "线性层 + log_softmax",
    "intro.comp.EncoderDecoder": "整个模型",
    "intro.comp.subsequent_mask": "后续位置（look-ahead）掩码",
    "intro.comp.make_model": "根据超参数构建模型",
    "intro.stack.embeddings": "词嵌入",
    "intro.stack.encoder": "编码器",
    "intro.stack.decoder": "解码器",
    "intro.stack.output": "输出",
    "intro.layer_n": "第 {n} 层",
    "intro.layer_source": "源序列",
    "intro.layer_target": "目标序列",
    "intro.sub.self_attn": "自注意力",
    "intro.sub.masked_self_attn": "掩码自注意力",
    "intro.sub.cross_attn": "交叉注意力",
    "intro.sub.feed_forward": "前馈网络",
    "intro.sub.generator": "生成器",
    "intro.sub.final_norm": "最后的层归一化",
    "intro.op.no_scaling": "（未缩放）",
    "intro.op.fixed_sincos": "（固定的正弦和余弦）",
    "intro.op.x_entering": "进入子层的 x",
    "intro.op.post_no_final_norm": "（后置归一化：没有最后的归一化）",

    # ---- 图表：通用（explorer/figures/common.py） ----
    "fig.common.row": "行",
    "fig.common.column": "列",
    "fig.common.value": "值",

    # ---- 图表：模型结构与参数（explorer/figures/model.py） ----
    "fig.arch.src_tokens": "源序列 token (src)",
    "fig.arch.src_ids": "id：x₁ … xₙ",
    "fig.arch.tgt_tokens": "解码器输入 (tgt)",
    "fig.arch.tgt_ids": "<s> y₁ y₂ …（右移一位）",
    "fig.arch.embeddings": "词嵌入 ({name})",
    "fig.arch.embed_table": "{vocab} × {d_model} 的查找表，{scale}",
    "fig.arch.not_scaled": "未乘 √d_model",
    "fig.arch.pe": "+ 位置编码",
    "fig.arch.pe_fixed": "（固定的 sin/cos）",
    "fig.arch.layernorm": "层归一化（{name}）",
    "fig.arch.self_attn": "自注意力",
    "fig.arch.masked_self_attn": "掩码自注意力",
    "fig.arch.cross_attn": "交叉注意力",
    "fig.arch.cross_sub": "src_attn：Q 来自 x；K、V 来自 memory",
    "fig.arch.feed_forward": "前馈网络",
    "fig.arch.heads": "h={h} 个头，每个 d_k={d_k}",
    "fig.arch.mask_tag": "掩码：{mask}",
    "fig.arch.hides_padding": "屏蔽填充",
    "fig.arch.hides_later": "屏蔽填充和后面的位置",
    "fig.arch.hides_src_padding": "屏蔽源序列的填充",
    "fig.arch.encoder_stack": "编码器层 × {N}",
    "fig.arch.decoder_stack": "解码器层 × {N}",
    "fig.arch.post_norm_1": "后置归一化：没有最后的层归一化",
    "fig.arch.post_norm_2": "（每一层的末尾已经有一个）",
    "fig.arch.linear": "线性层 (generator.proj)",
    "fig.arch.output": "输出概率",
    "fig.arch.output_detail": "（对数）：每个位置上下一个 token 的概率",
    "fig.arch.generator": "生成器",
    "fig.arch.to_every_layer": "送入每个解码器层",
    "fig.arch.shared": "绑定的权重",
    "fig.arch.parameters": "参数量",
    "fig.arch.param_hover": "%{y}：%{x:,} 个参数<extra></extra>",

    # ---- 图表：注意力（explorer/figures/attention.py） ----
    "fig.attention.kind_enc": "编码器自注意力",
    "fig.attention.kind_dec": "解码器掩码自注意力",
    "fig.attention.kind_cross": "交叉注意力（解码器 → 编码器）",
    "fig.attention.mask_enc": "src_mask：只屏蔽填充",
    "fig.attention.mask_dec": "tgt_mask：屏蔽填充和后面的位置",
    "fig.attention.mask_cross": "src_mask：屏蔽源序列的填充",
    "fig.attention.mean_of_heads": "各头的平均",
    "fig.attention.head": "头 {j}",
    "fig.attention.layer": "第 {i} 层",
    "fig.attention.query": "查询",
    "fig.attention.key": "键",
    "fig.attention.weight": "权重",
    "fig.attention.feature_axis": "特征 (d_k)",

    # ---- 图表：掩码（explorer/figures/masks.py） ----
    "fig.masks.query_axis": "查询（发出关注的位置）",
    "fig.masks.key_axis": "键（被关注的位置）",
    "fig.masks.query": "查询",
    "fig.masks.key": "键",
    "fig.masks.may_attend": "可以关注",
    "fig.masks.blocked": "被屏蔽",
    "fig.masks.no_token": "—",
    "fig.masks.scores": "分数",
    "fig.masks.softmax_without": "不加掩码的 softmax",
    "fig.masks.softmax_with": "加掩码的 softmax",

    # ---- 图表：位置编码（explorer/figures/embeddings.py） ----
    "fig.pos.curve_name": "第 {d} 维 ({kind})",
    "fig.pos.dim": "维度",
    "fig.pos.position": "位置",
    "fig.pos.pe_value": "位置编码的值",
    "fig.pos.dimension_axis": "维度（偶数：sin，奇数：cos）",
    "fig.pos.dot_product": "点积",
    "fig.pos.shift_title": "k = {k} 时的 M_k：每个频率一个 2×2 旋转",
    "fig.pos.feature_axis": "特征 (d_model)",
    "fig.pos.mean_abs": "平均 |值|",

    # ---- 图表：张量形状（explorer/figures/shapes.py） ----
    "fig.shapes.slice_head": "[0, 头 {head}]",
    "fig.shapes.head": "头 {j}",
    "fig.shapes.concat_title": "拼接：(seq, h·d_k = d_model)",
    "fig.shapes.token": "token",
    "fig.shapes.feature": "特征",

    # ---- 图表：训练（explorer/figures/train.py） ----
    "fig.film.step_prefix": "步数：",
    "fig.film.play": "播放",
    "fig.film.pause": "暂停",
    "fig.film.head_name": "第 {i} 层 · 头 {j}",
    "fig.film.closeness": "接近程度",
    "fig.film.closeness_axis": "理想位置上的权重",
    "fig.film.baseline": "均匀分布",
    "fig.training.step": "步",
    "fig.training.step_axis": "训练步数",
    "fig.training.loss": "损失",
    "fig.training.loss_name": "每个 token 的损失",
    "fig.training.loss_axis": "损失（对数坐标）",
    "fig.training.accuracy": "token 准确率",
    "fig.training.accuracy_name": "token 准确率（教师强制）",
    "fig.training.accuracy_axis": "准确率",
    "fig.training.token": "token",
    "fig.training.probability": "概率",
    "fig.training.next_token_axis": "下一个 token（红色：贪心解码的选择）",
    "fig.training.yours": "（你的设置）",
    "fig.training.learning_rate": "学习率",
    "fig.training.confidence_title": "越来越有把握的预测的损失（ε = 0.1）",
    "fig.training.confidence_x": "x（标签的概率是 x / (x + 3)）",
    "fig.training.confidence_best": "最低损失",
    "fig.training.smoothing_title": "平滑后的目标分布，epsilon = {epsilon}",
    "fig.training.vocab_axis": "词表中的 token",
    # ---- 侧边栏（共享控件） ----
    "sidebar.source": "源句子",
    "sidebar.source_help": "编码器读入的内容。按回车键应用。",
    "sidebar.target": "目标句子（可选）",
    "sidebar.target_placeholder": "留空：与源句子相同（复制任务）",
    "sidebar.target_help": "在 <s> 之后喂给解码器的内容（教师强制）。",
    "sidebar.tokens": "分词方式",
    "sidebar.tokens_word": "按词",
    "sidebar.tokens_char": "按字符",
    "sidebar.tokens_unspaced": "中文（和日文、泰文一样）的词与词之间没有空格，要切出词需要基于"
                               "词典的分词器（例如 jieba），本应用没有使用。所以“按词”也会把这些"
                               "字逐个切开，和“按字符”完全一样。",
    "sidebar.preset": "模型规模",
    "sidebar.preset_help": "tiny 几秒即可训练完；paper base 即论文中的 N=6、d_model=512。",
    "sidebar.preset_custom": "自定义",
    "sidebar.N": "N（层数）",
    "sidebar.h": "h（头数）",
    "sidebar.seed": "随机种子（初始权重）",
    "sidebar.teaching": "教学选项",
    "sidebar.seed_short": "随机种子",
    "sidebar.following_size": "模型：{values}",
    "sidebar.following_size_note": "这些是老师的设置。改动其中任何一项，你就进入自行探索；"
                                   "点“回到课堂”即可回来。",
    "sidebar.norm_placement": "层归一化的位置",
    "sidebar.norm_placement_help": "后置（论文，§3.1）：`LayerNorm(x + Sublayer(x))`，在残差"
                                   "相加之后做层归一化。前置（The Annotated Transformer）：`x + "
                                   "Sublayer(LayerNorm(x))`，每个编码器和解码器的末尾还多一次层归一化。"
                                   "有一篇代码讲解说前置归一化基本就是论文的写法：并不是，两者算的是"
                                   "不同的函数（切换一下，对比“张量形状”页上的张量）。",
    "sidebar.norm_pre": "前置（Annotated）",
    "sidebar.norm_post": "后置（论文）",
    "sidebar.layer_norm": "层归一化公式",
    "sidebar.scale_embedding": "词嵌入乘以 √d_model",
    "sidebar.tie_weights": "权重绑定",
    "sidebar.tie_none": "不绑定",
    "sidebar.tie_decoder": "解码器词嵌入 = 输出层",
    "sidebar.tie_all": "三张表全部绑定",
    "sidebar.train_mode": "训练模式（启用 dropout）",
    "sidebar.fixed_by_checkpoint": "模型的规模和选项由你的检查点决定（这里只读显示）。点下面的"
                                   "“返回侧边栏设置的模型”即可恢复你自己的设置。",
    "sidebar.share": "本视图的链接",
    "sidebar.copy_link": "复制本视图的链接",
    "sidebar.copied": "已复制 ✓",
    "sidebar.share_help": "这个链接能打开你现在看到的内容：句子和目标句子、模型设置、界面语言、演"
                          "示模式，以及各页的选择（层、头、注意力类型、消融、“训练与解码”页的任务"
                          "、符号和训练设置、解码的输入、模型、步骤、层和头、束宽、要破坏的部分）。"
                          "它不包含训练好的模型或导入的模型（它们只留在你的会话里，打开链接的人需要"
                          "自己训练或导入），也不包含学习率调度图和标签平滑图的演示滑块。点框右侧的"
                          "按钮，或点“复制本视图的链接”，即可复制。",
    "sidebar.params": "参数量",
    "sidebar.tokens_table": "模型看到的 token（源句子 {n} 个）",
    "sidebar.col_source": "源 token",
    "sidebar.col_decoder": "解码器输入",
    # ---- 注意力页 ----
    "attn.title": "注意力",
    "attn.intro": "注意力让每个位置从其他位置收集信息。每个头把一个**查询**（query，这个位置在"
                  "找什么）"
                  "与每个**键**（key，每个位置能提供什么）比较，用 softmax 把分数变成权重，再返回"
                  "**值**（value）的加权和：`softmax(Q Kᵀ / √d_k) V`。下面热力图的一行是一个查询 "
                  "token，它对所有键 token 的权重之和为 1。",
    "attn.which": "选择注意力",
    "attn.average": "对各头取平均",
    "attn.average_help": "显示每层 h 个头的注意力权重的平均值。",
    "attn.side_src": "源句子",
    "attn.side_tgt": "解码器输入",
    "attn.axes": "查询：{queries} token（行）· 键：{keys} token（列）· 掩码：{mask}",
    "attn.random_weights": "**这些权重是随机的**（由随机种子 {seed} 生成）：这个模型没有训练过，"
                           "热力图展示的是注意力如何计算，而不是训练好的模型会关注什么。去"
                           "“训练与解码”页训练一个模型，或在侧边栏加载检查点，就能看到学到的"
                           "注意力。",
    "attn.checkpoint_weights": "这些是你的检查点中的权重：它学到的东西会显示在这里。",
    "attn.train_mode": " · **训练模式：dropout 已启用**：每次重新运行都会抽取新的 dropout "
                       "掩码，所以图中的权重本身也会变（词嵌入与位置编码之和上、以及前面各子层"
                       "里的 dropout 会影响查询和键）。图中是这个注意力自己的 dropout "
                       "之前的权重，所以每一行的和仍然是 1",
    "attn.too_many": "{N} 层 × {h} 个头 × {q} × {k} 个 token 的格子太多，无法为每个头各画一张"
                     "热力图，"
                     "因此网格显示各头的平均。下方的单头视图可以查看任意一个头。",
    "attn.upper_triangle": "上三角是空的：后续位置掩码阻止每个位置看到后面的位置，因此解码器无"
                           "法偷看"
                           "它要预测的词。",
    "attn.focus_header": "逐步查看一个头",
    "attn.layer": "层",
    "attn.head": "头",
    "attn.step1": "**1. 投影并拆分。** `linears[0..2]`（d_model → d_model）生成 Q、K、V。Q "
                  "来自该层的输入 x（前置归一化时来自 LayerNorm(x)）；自注意力中 K、V "
                  "也来自这个 x，交叉注意力中 K、V 来自编码器的输出 `memory`。三者各自切成 "
                  "{h} 个 d_k = {d_k} 的头。这个头的切片：",
    "attn.step2": "**2. 分数** `Q @ Kᵀ / √d_k`，其中 √d_k = {sqrt_dk}。为什么要除？如果 q 和 "
                  "k 的各个分量相互独立、均值为 0、方差为 1，那么 q · k 的方差是 "
                  "d_k（§3.2.1，脚注 4）：点积很大时，softmax 会进入梯度极小的区域。除以 √d_k "
                  "把方差拉回到 1。",
    "attn.scores_title": "分数（{shape}）",
    "attn.masked_title": "掩码后的分数：空白 = -1e9（{n} 个被屏蔽）",
    "attn.mistake_exploding": "常听到一种说法：除以 √d_k 是为了防止梯度*爆炸*。其实正好相反。在这"
                              "个头上（d_k = {d_k}）对比一下实际的做法（除以 √d_k）和不除：分数的"
                              "方差分别是 {var_scaled} 和 {var_unscaled}；softmax 每行最大权重的平"
                              "均值分别是 {max_scaled} 和 {max_unscaled}；每行梯度的大小 Σ p(1 − "
                              "p) 分别是 {grad_scaled} 和 {grad_unscaled}。分数越大，softmax 越饱"
                              "和，而饱和的 softmax 传回去的梯度反而*更小*（§3.2.1：“梯度极小”）。"
                              "d_k 越大，差距越明显；把模型规模换成“论文 base 模型”就能看到。",
    "attn.step3": "**3. Softmax** 对每一行把分数变成和为 1 的权重；只要这一行还有可以关注的"
                  "键，被屏蔽的位置就得到 exp(-1e9)，在 float32 下正好是 0（一行的键全被屏蔽时，"
                  "每个键得到 1/n）。",
    "attn.weights_title": "权重 p_attn（{shape}）",
    "attn.z_title": "4. 加权和 p_attn @ V（{shape}）",
    "attn.step5": "**5. 拼接并混合。** {h} 个头的输出（每个 {q} × {d_k}）并排拼成 {q} × {d_model}，"
                  "再乘以 W^O（`linears[3]`）。本次前向传播的每个张量见“张量形状”页。",
    "attn.npz": "下载本次运行捕获的全部张量（.npz）",
    "attn.npz_help": "每个钩子点一个数组（名称与“张量形状”页相同），另含 token "
                     "和模型自己的词表：tokens.vocab[i] 是对数概率第 i 列对应的 "
                     "token，tokens.src_vocab 给出源语言各 id 对应的 token。用 numpy.load(path) "
                     "打开。每张图都可单独下载 PNG：点击其工具栏中的相机图标。",
    # ---- 消融一个头（explorer/sections/knockout.py） ----
    "ko.header": "消融一个头",
    "ko.open": "动手试试：消融一个头或一个子层",
    "ko.intro": "消融（ablation）一个头或整个子层，就是在运行时把它的输出换成 0，看看模型因此少了"
                "什么：它对你的输入给出的回答，以及它在自己任务的新输入上的整序列准确率。只有这几"
                "次运行里由钩子把输出置零，模型的权重不会改变。",
    "ko.part": "子层",
    "ko.part_encoder_feed_forward": "编码器前馈网络",
    "ko.part_decoder_feed_forward": "解码器前馈网络",
    "ko.whole": "整个子层",
    "ko.unit": "{part}，{layer}，{head}",
    "ko.refused": "这个消融选项不适用于该模型（超出它的层或头，或不是菜单里的值）：改为显示第一个"
                  "选项。",
    "ko.how": "仅在本次运行中通过钩子点 `{hook}` 移除。",
    "ko.answer_intact": "**完整模型的回答**（对你的输入做贪心解码）",
    "ko.answer_without": "**消融后的回答**：{unit}",
    "ko.answer_same": "对你的输入的回答没有改变。",
    "ko.answer_changed": "回答在 {total} 个位置中的 {n} 个发生了变化。",
    "ko.train_mode": "侧边栏中 dropout 已打开（训练模式）；这里的回答在关闭 dropout 的情况下"
                     "解码，因此两者只因消融而不同。",
    "ko.no_task_untrained": "这个未训练的模型从未学过任何任务，因此没有准确率可测（也无法测量一个"
                            "头的作用）：只有上面它对你的输入的回答能显示消融改变了什么。请在“训练"
                            "与解码”页训练一个模型并在侧边栏中选择它，或者看看日期翻译器。",
    "ko.no_task_file": "导入的文件没有指明本应用的任何任务，因此没有准确率可测（也无法测量一个头的"
                       "作用）：只有上面对你的输入的回答能显示消融改变了什么。",
    "ko.no_task_vocab": "这个模型的文件写明了任务，但模型的词表和这个任务的词表不一样，所以没法测"
                        "准确率：只能从上面它对你的输入的回答，看出消融改变了什么。",
    "ko.no_task_long": "这个模型的位置编码表比它的任务里最长的序列还短，所以没法测准确率：只能从上"
                       "面它对你的输入的回答，看出消融改变了什么。",
    "ko.measuring": "正在对新输入解码（消融前后各一次）…",
    "ko.acc_intact": "整序列准确率，完整模型（{n} 个输入）",
    "ko.acc_without": "整序列准确率，消融后（{n} 个输入）",
    "ko.points": "{d} 个百分点",
    "ko.acc_caption": "{task}任务的 {n} 个{sequences}，每次消融都用同样的输入；只有整个回答都对，"
                      "一个输入才算对。",
    "eval.held": "留出序列（从不出现在训练批中）",
    "eval.not_held": "按训练的方式抽取的序列（这个任务不同的序列太少，一个也留不出来）",
    "ko.acc_caption_dates": "在这里用{task}任务的 {n} 个日期测得，这些日期取自训练时留出的日子（用"
                            "固定的随机种子抽取，每次消融都用同样的日期）；只有整个回答都对，一个"
                            "日期才算对。",
    "ko.measure": "测量每一个头（{count} 个头）",
    "ko.measure_help": "每次只移除一个头，每次都解码同样的 {n} 个输入（共 {count} "
                       "次准确率测量）；按上面测量准确率所用的时间估算，这里大约需要 {seconds} "
                       "秒。",
    "ko.progress": "准确率 {done} / {total}",
    "ko.no_pattern": "前馈网络没有注意力模式：它单独处理每个位置。",
    "ko.pattern_title": "权重：{unit}",
    "ko.grid_caption": "每次只消融一个头，在 {n} 个新输入上测准确率下降了多少（完整模型：{intact}"
                       "）；测完 {count} 个头总共花了 {seconds} 秒。最重要的头是 {best}（准确率下"
                       "降 {lost}）；有 {unchanged} 个头去掉后毫无影响。蓝色：去掉这个头后模型反而"
                       "更好。",
    "ko.fig_lost": "准确率下降",
    "ko.fig_intact": "完整模型：{intact}",
    "ko.fig_scale": "下降",
    # ---- 缓存计算（explorer/app/cache.py） ----
    "ui.running_sentence": "正在让你的句子通过模型…",

    # ---- 链接参数的提示（explorer/state/urlstate.py） ----
    "url.refused": "链接中的“{label}”没有被采用：{expected}。{fallback}",
    "url.label.source": "源句子",
    "url.label.target": "目标句子",
    "url.label.token_mode": "分词方式",
    "url.label.preset": "模型规模",
    "url.label.N": "N（层数）",
    "url.label.d_model": "d_model",
    "url.label.h": "h（头数）",
    "url.label.d_ff": "d_ff",
    "url.label.seed": "随机种子",
    "url.label.dropout": "dropout",
    "url.label.norm_placement": "层归一化位置",
    "url.label.layer_norm": "层归一化公式",
    "url.label.tie_weights": "权重绑定方式",
    "url.label.scale_embedding": "词嵌入缩放",
    "url.label.train_mode": "训练模式",
    "url.label.model": "要查看的模型",
    "url.label.lang": "界面语言",
    "url.label.layer": "注意力层",
    "url.label.head": "注意力头",
    "url.label.kind": "注意力类型",
    "url.label.pe_d_model": "位置编码的 d_model",
    "url.label.pe_dims": "位置编码维度列表",
    "url.label.task": "训练任务",
    "url.label.presenter": "演示模式",
    "url.label.average": "多头平均",
    "url.label.mask_len": "掩码页的句子长度",
    "url.label.mask_size": "掩码页的后续位置掩码大小",
    "url.label.shape_part": "形状页的部分筛选",
    "url.label.shape_layer": "形状页的层筛选",
    "url.label.shape_attn": "形状页的注意力筛选",
    "url.expect_text": "应为不超过 {n} 个字符的文本",
    "url.expect_one_of": "应为以下之一：{choices}",
    "url.expect_int": "应为 {low} 到 {high} 之间的整数",
    "url.expect_number": "应为 {low} 到 {high} 之间的数",
    "url.expect_bool": "应为 1（开）或 0（关）",
    "url.expect_layer": "应为 0 到 {last} 之间的层号（N = {N}）",
    "url.expect_head": "应为 0 到 {last} 之间的头号（h = {h}）",
    "url.expect_even": "应为 {low} 到 {high} 之间的偶数",
    "url.expect_dims": "应为 1 到 {n} 个互不相同、在 0 到 {last} 之间的整数，用逗号分隔",
    "url.use_page_default": "改用页面的默认值。",
    "url.use_value": "改用 {value}。",
    "url.use_default_text": "改用默认的{label}。",
    "url.use_on": "改为开启。",
    "url.use_off": "改为关闭。",

    # ---- 侧边栏设置的校验（explorer/core/settings.py）；{name} 是设置的标识符 ----
    "settings.value_of_type": "一个 {type} 类型的值",
    "settings.int_whole": "{name} 必须是 {low} 到 {high} 之间的整数；收到的是 {value}。",
    "settings.int_range": "{name} 必须在 {low} 到 {high} 之间；收到的是 {value}。",
    "number.below": "{name}：{given} 小于允许的最小值 {low}，现在使用 {used}。",
    "number.above": "{name}：{given} 大于允许的最大值 {high}，现在使用 {used}。",
    "number.odd": "{name}：{given} 是奇数，这里只能用偶数，现在使用 {used}。",
    "number.not_whole": "{name}：{given} 不是整数，现在使用 {used}。",
    "number.not_number": "{name}：这不是 {low} 到 {high} 之间的数，现在使用 {used}。",
    "settings.choice": "{name} 必须是以下之一：{allowed}；收到的是 {value}。",
    "settings.bool": "{name} 只能是开或关；收到的是 {value}。",
    "settings.not_text_source": "源句子必须是文本；收到的是 {type}。",
    "settings.not_text_target": "目标句子必须是文本；收到的是 {type}。",
    "settings.dropout": "dropout 必须是 0 到 {high} 之间的数；收到的是 {value}。",
    "settings.too_many_params": "这个模型将有 {params}M 个参数；上限是 "
                                "{limit}M，以免一位学习者占满共享服务器的内存。请减小 "
                                "N、d_model 或 d_ff（论文的 base 模型约有 65M 个参数，其中 "
                                "44M 在编码器和解码器里）。",
    "settings.too_big_to_train": "只能训练不超过 {limit}M 个参数的模型（这个模型有 {params}M），"
                                 "更大的模型无法在共享服务器上 {seconds} 秒的时间上限内学会。"
                                 "tiny 预设几秒钟就能训练完。",

    # ---- 检查点的错误与说明（explorer/core/checkpoint.py） ----
    "ckpt.err.save_hint": "请用 torch.save(model.state_dict(), path) 保存。",
    "ckpt.err.not_a_name": "（一个不像参数名的键）",
    "ckpt.err.list_sep": "、",
    "ckpt.err.and_more": "，以及另外 {n} 个",
    "ckpt.err.one_layer": "1 层",
    "ckpt.err.layers": "{n} 层",
    "ckpt.err.a_type": "（一个 {type}）",
    "ckpt.err.list_not_utf8": "token 列表不是 UTF-8 文本。",
    "ckpt.err.list_not_text": "token 列表必须是文本：每行一个 token。",
    "ckpt.err.list_too_long": "token 列表有 {n} 个字符，上限是 {limit}。它应当每行只有一个 token。",
    "ckpt.err.token_too_long_line": "token 列表第 {i} 行有 {n} 个字符，而一个 token 最多 {limit} "
                                    "个字符。文件选对了吗（每行一个 token）？",
    "ckpt.err.token_too_long_token": "token 列表的第 {i} 个 token 有 {n} 个字符，而一个 token 最多 "
                                     "{limit} 个字符。文件选对了吗（每行一个 token）？",
    "ckpt.err.duplicate_line": "token 列表的第 {a} 行和第 {b} 行是同一个 token：每个 id "
                               "都需要自己的 token。",
    "ckpt.err.duplicate_token": "token 列表的第 {a} 个和第 {b} 个 token 相同：每个 id 都需要自己的 "
                                "token。",
    "ckpt.err.not_bytes": "检查点必须是 torch.save 所保存文件的原始字节。",
    "ckpt.err.empty": "文件是空的。请选择一个用 torch.save 保存的检查点。",
    "ckpt.err.too_big": "文件大小为 {size}，上限是 {limit}，以免加载时占满共享服务器的内存。",
    "ckpt.err.unpacks_too_big": "文件解压后有 {size}，上限是 {limit}。",
    "ckpt.err.python_objects": "文件里除了权重还有 Python 对象（例如用 torch.save(model) 保存"
                               "的整个模型）。为了安全，只读取张量和普通容器。{hint}",
    "ckpt.err.not_pytorch": "这个文件不是 PyTorch 检查点。需要的是由 torch.save 写出、包含 "
                            "state_dict 的文件。{hint}",
    "ckpt.err.damaged": "文件已损坏或不完整（保存或上传时被中断了？）。需要的是由 torch.save "
                        "写出、包含 state_dict 的文件。{hint}",
    "ckpt.err.file_memory": "这个文件需要的内存超过了服务器的容量。",
    "ckpt.err.not_a_dict": "文件中保存的是一个 {type}，而不是由权重组成的字典。{hint}",
    "ckpt.err.unknown_format": "文件声明了一种本应用不认识的格式；本应用读写的是 {format}"
                               "（以及普通的 state_dict）。",
    "ckpt.err.export_incomplete": "文件声明自己是 {format} 检查点，但缺少其中的 'state_dict' "
                                  "或 'config' 字典，可能已经损坏。请在本应用中重新导出。",
    "ckpt.err.no_weights": "文件中没有找到权重：需要一个 state_dict（参数名 -> 张量），或一个"
                           "把它放在 {keys} 这几个键之一下的字典。{hint}",
    "ckpt.err.not_named_tensors": "state_dict 中有 {n} 项不是带名字的张量（{listing}）。"
                                  "state_dict 是从参数名到张量的映射。{hint}",
    "ckpt.err.not_float_one": "权重必须是浮点张量；{listing} 不是。",
    "ckpt.err.not_float_many": "权重必须是浮点张量；{listing} 都不是。",
    "ckpt.what.src_embed": "源语言词嵌入表",
    "ckpt.what.tgt_embed": "目标语言词嵌入表",
    "ckpt.what.ffn": "前馈网络的第一个线性层",
    "ckpt.what.pe": "位置编码表",
    "ckpt.err.missing_tensor": "这不是 The Annotated Transformer 模型的检查点：其中没有 {key}"
                               "（{what}）。需要的是 src_embed.0.lut.weight、"
                               "encoder.layers.0.self_attn.linears.0.weight、"
                               "generator.proj.weight 这样的名字。",
    "ckpt.err.wrong_ndim": "{key}（{what}）应当有 {ndim} 个维度，而不是 {got} 个。",
    "ckpt.err.no_layers_encoder": "检查点中没有编码器层（名字应形如 "
                                  "encoder.layers.0.self_attn...）。",
    "ckpt.err.no_layers_decoder": "检查点中没有解码器层（名字应形如 "
                                  "decoder.layers.0.self_attn...）。",
    "ckpt.err.layer_counts": "编码器有 {enc}，解码器却有 {dec}；这个模型的编码器和解码器层数应当相"
                             "同，都是 N（是不是缺了一层？）。",
    "ckpt.err.one_final_norm_encoder": "编码器最后有一个层归一化（encoder.norm），解码器却没有；"
                                       "前置归一化的模型两者都有，后置归一化的模型两者都没有。",
    "ckpt.err.one_final_norm_decoder": "解码器最后有一个层归一化（decoder.norm），编码器却没有；"
                                       "前置归一化的模型两者都有，后置归一化的模型两者都没有。",
    "ckpt.err.out_of_range": "检查点的 {name} = {value}；本应用支持的 {name} 范围是 {low} 到 "
                             "{high}。",
    "ckpt.err.too_many_params": "这个模型将有 {params}M 个参数；上限是 {limit}M，以免一位学习者"
                                "占满共享服务器的内存。",
    "ckpt.err.h_differs": "这个检查点导出时 h = {stored} 个头，但你填写的是 h = {given}："
                          "清空 h 这一栏，即可使用文件中的 h = {stored}。",
    "ckpt.err.h_needed": "请填写头数 h：它无法从权重中读出（W^Q 把所有头放在同一个 d_model x "
                         "d_model 矩阵里）。d_model = {d_model} 时，h 可以是 {valid}；The "
                         "Annotated Transformer 用的是 8。",
    "ckpt.err.h_not_divisor": "h = {h} 不可用：h 必须整除 d_model = {d_model}（每个头分到 "
                              "d_model / h 维）。可用的 h：{valid}。",
    "ckpt.err.h_out_of_range": "h = {h} 超出了本应用的范围 {low} 到 {high}。可用的 h：{valid}。",
    "ckpt.err.config_mismatch": "文件的 config 写的是 {name} = {saved}，但它的权重显示 {name} "
                                "= {value}；文件前后不一致。请在本应用中重新导出。",
    "ckpt.err.no_model": "这些权重无法构成一个模型。{message}",
    "ckpt.err.shape_is": "{key} 的形状是 {shape}，应为 {expected}",
    "ckpt.err.missing": "缺少 {n} 个张量：{listing}",
    "ckpt.err.unexpected": "多出 {n} 个张量：{listing}",
    "ckpt.err.wrong_shapes": "{n} 个张量形状不对：{listing}",
    "ckpt.err.problem_sep": "；",
    "ckpt.err.do_not_fit": "这些权重与它们所描述的模型不符（N = {N}，d_model = {d_model}，"
                           "d_ff = {d_ff}，词表大小 {src}/{tgt}）：{problems}。",
    "ckpt.err.swapped": "它的大小和另一个词表相同：是不是把两个列表弄反了？",
    "ckpt.err.list_size_shared": "共享 token 列表有 {n} 个 token，而检查点的共享词表有 {size} "
                                 "个（词嵌入表的每一行对应一个 token，按 id 顺序）。",
    "ckpt.err.list_size_source": "源语言 token 列表有 {n} 个 token，而检查点的源语言词表有 {size} "
                                 "个（词嵌入表的每一行对应一个 token，按 id 顺序）。",
    "ckpt.err.list_size_target": "目标语言 token 列表有 {n} 个 token，而检查点的目标语言词表有 "
                                 "{size} 个（词嵌入表的每一行对应一个 token，按 id 顺序）。",
    "ckpt.err.stored_vocab": "文件中保存的词表与它的词嵌入表不匹配；请上传一个 token "
                             "列表（每行一个 token）来给 token 命名。",
    "ckpt.err.load_memory": "加载这个检查点需要的内存超过了服务器的容量。",
    "ckpt.err.unexpected_failure": "无法加载这个检查点（{type}）。需要的是 The Annotated "
                                   "Transformer 的 make_model 的 state_dict。{hint}",
    "ckpt.err.not_finite": "有些权重是 NaN 或无穷大（{listing}）：模型在保存时就已经坏了"
                           "（训练发散了？）。",
    "ckpt.err.load_state_dict": "这些权重与它们的形状所描述的模型不符；文件可能已损坏。",
    "ckpt.note.module_prefix": "已去掉 nn.DataParallel 加在每个名字前面的 'module.' 前缀。",
    "ckpt.note.no_vocab": "没有提供 token 列表：token 按 id 命名为 tok0、tok1……",
    "ckpt.note.no_pe": "文件中没有位置编码表（它们是固定的，不是学出来的）；已按公式为 {n} "
                       "个位置重新计算。",
    "ckpt.note.pe_extended": "文件中的位置编码表只覆盖 {saved} 个位置；它们是固定的正弦公式"
                             "（不是学出来的），所以已按公式扩展到 {n} 个位置（本应用能读入的"
                             "最长文本）。",
    "ckpt.note.assumed_options": "假定层归一化公式是 Annotated 版本（std + 1e-6），并且词嵌入"
                                 "乘以 sqrt(d_model)：仅凭 state_dict 无法判断。",
    "ckpt.note.post_norm": "编码器和解码器都没有最后的层归一化：按后置归一化加载（论文中的 "
                           "LayerNorm(x + Sublayer(x))）。",
    "ckpt.note.tied": "发现了绑定的权重：tie_weights = {tie}。",

    # ---- 训练与解码页（pages/train.py、explorer/sections/train.py、decode.py） ----
    "train.title": "训练与解码",
    "train.intro": "在这里，你可以在一个玩具任务上训练一个全新的 Transformer——复制、反转或排序一个"
                   "短序列——或者教它读懂 {languages} 种语言的日期，然后看着它一个 token 一个 "
                   "token 地生成答案。在空闲的双核服务器上测得（bench/results.md 第 1b 和 8b "
                   "节）：复制的中位数是 1.4 秒，反转和排序分别是 3.9 秒和 3.8 秒，反转单词 4.3 秒"
                   "（这几项里最慢的种子 5.0 秒），日期 19 秒（最慢 23 秒）。服务器繁忙时会更久："
                   "一个班的十个学生同时训练不同的模型时，复制最长用了 10.8 秒（第 12 节）。进度条"
                   "会显示还剩多少时间，训练结束后，结果里会显示你这次训练实际用的时间。",
    "train.how_title": "训练是怎样进行的：教师强制、损失函数，以及注意力为什么会变化",
    "train.how_text": "**教师强制（teacher forcing）。** 位置从 0 开始编号。每个训练样本由"
                      "源序列 `x0 … x(n−1) </s>` 和目标序列 `<s> y0 … y(m−1) </s>` 组成。`Batch`"
                      " 把目标序列错开一位切成两份：解码器的*输入* `tgt = <s> y0 … y(m−1)`"
                      " 和*标签* `tgt_y = y0 … y(m−1) </s>`。解码器的位置 *i* 读入 `<s> y0"
                      " … y(i−1)`（标签 *i* 之前的正确 token），并且要预测标签 *i*。所有位"
                      "置在一次前向传播中同时训练；后续位置掩码阻止每个位置看到它要预测的"
                      "答案。训练时模型从来看不到自己犯的错——只有在它独立解码时才会（第 3 "
                      "节）。\n\n**每个 token 的损失。** 在每个标签位置上，生成器给出整个"
                      "词表上的对数概率；损失函数把它们与标签比较（使用标签平滑时，与平滑"
                      "后的目标分布比较）。批中所有真实标签 token 的损失相加，`<pad>` 位置"
                      "被跳过，再除以真实 token 的个数（`batch.ntokens`），所以下面的曲线"
                      "是每个目标 token 的平均损失，与序列长度无关。不使用标签平滑时，它就"
                      "是交叉熵：对下面选择的任务，在它的 {vocab} 个 token 中平均猜测时为 ln"
                      " {vocab} ≈ {ln_vocab}，完全确定时为 0。\n\n**注意力为什么会变化。**"
                      " 新模型的权重矩阵是随机的（Xavier 初始化），所以它的查询和键都是随"
                      "机投影，注意力权重几乎是均匀的、看不出任何模式。训练会让它们适应任"
                      "务：复制时，输出位置 *i* 需要源 token *i*，于是交叉注意力变成一条**"
                      "对角线**；反转时需要源 token *n*−1−*i*，变成一条**反对角线**；排序"
                      "时，每一步都去找下一个最小的符号，不论它在哪里。第 4 节把同一个输入"
                      "分别送入未训练和训练后的模型，并排对比。\n\n**这里的复制任务和 The Annotate"
                      "d Transformer 的有什么不同。** 它的例子从大小为 11 的词表（V = 11；"
                      "id 0 是填充，但从不出现）中抽取长度恰好为 10 的序列，把每个序列的第"
                      "一个 token 设为 1，让它充当起始符号，并把同一个序列同时作为源序列和"
                      "目标序列：没有 `</s>`，没有填充，长度都一样。这里长度可变，每个源序"
                      "列以 `</s>` 结尾，每个目标序列以 `<s>` 开头，较短的序列用 `<pad>` "
                      "填充（掩码和损失都会跳过它），符号是数字 0–9（或你的单词）。",
    "train.task_header": "1. 选择一个任务",
    "train.task": "任务",
    "train.task_copy": "复制",
    "train.task_reverse": "反转",
    "train.task_sort": "排序",
    "train.symbols": "符号",
    "train.symbols_digits": "数字 0–9",
    "train.symbols_words": "你句子中的词",
    "train.rule_copy": "同一个序列",
    "train.rule_reverse": "倒过来的序列",
    "train.rule_sort": "按顺序排列的符号",
    "train.rule_sort_words": "按顺序排列的符号（词按 Unicode "
                             "码位排序：大写字母在小写字母之前，汉字按码位）",
    "train.task_text": "源序列是 1 到 {max_len} 个随机符号；答案是{rule}。词表："
                       "{vocab} 个 token = 4 个特殊 token + {symbols} 个符号：",
    "train.tf_expander": "教师强制：这个任务的一个例子",
    "train.tf_caption": "每一行是解码器的一个位置：它读入这一行的输入 token（以及上面所有"
                        "行的输入），训练目标是给这一行的标签分配高概率。",
    "train.col_position": "位置",
    "train.col_input": "解码器输入 (tgt)",
    "train.col_label": "要预测的标签 (tgt_y)",
    "train.train_header": "2. 训练",
    "train.model": "要训练的模型",
    # (13) 测量方法与结果见 EN 中的注释（bench/train_wait.py）。
    "train.model_recipe": "快速训练方案：N={N}，d_model={d_model}，h={h}，d_ff={d_ff}，不用 "
                          "dropout（在空闲的双核服务器上学会复制的中位数是 1.4 秒，最慢的种子 "
                          "1.8 秒）",
    "train.model_sidebar": "N={N}，d_model={d_model}，h={h}，d_ff={d_ff}，dropout "
                           "{dropout}（更慢；见下方说明）",
    "train.model_help": "快速训练方案故意做得很小：复制、反转和排序只需要一层和两个头，"
                        "几秒钟就能训练完。侧边栏的教学选项（层归一化的位置与公式、缩放、权重绑定）"
                        "和随机种子对两者都适用。",
    "train.steps": "训练步数",
    "train.steps_help": "优化器的步数，每步用一批随机抽取的序列。",
    "train.batch": "批大小（每步的序列数）",
    "train.smoothing": "标签平滑 ε",
    "train.smoothing_help": "0 = 普通的交叉熵；论文中用 0.1。见页面底部的图。",
    "train.schedule": "学习率调度",
    "train.schedule_constant": "恒定",
    "train.schedule_warmup": "线性预热，然后恒定",
    "train.schedule_noam": "Noam（先预热，再按 1/√step 下降）",
    "train.lr": "学习率",
    "train.warmup": "预热步数",
    "train.factor": "Noam 系数 (factor)",
    "train.early": "学会后自动停止",
    "train.early_help": "每一步训练用的那一批序列都是新随机抽的，在更新权重之前先打分。某一步的这"
                        "批序列几乎全对时，就做一次停止检验：另外抽 {n} 个新序列来考，{n} 个全对就"
                        "停止训练。检验只需教师强制下的一次前向传播，得出的结论却和贪心解码一样："
                        "有后续位置掩码时，如果一个序列里每个下一个 token 都是模型给出概率最大的那"
                        "个，贪心解码写出来的就正是这个序列。开着 dropout 时，这批序列是在丢掉部分"
                        "单元的情况下打的分，所以改为每 {every} 步检验一次。训练结束后显示的准确率"
                        "是在另外的序列上测的。",
    "train.adam_caption": "与论文相同，使用 Adam，β = (0.9, 0.98)，ε = 1e-9。"
                          "默认是本应用的快速训练方案：{warmup} 步学习率预热后学习率为 {lr}，"
                          "批大小 {batch}，不使用标签平滑——在这里比 The Annotated Transformer "
                          "的复制任务训练方案（N=2，d_model=512，Noam 预热 400 步，在两个 CPU "
                          "核上需要几分钟）快 100 多倍。权重、每一批数据以及 dropout 丢弃哪些单元，"
                          "都由侧边栏的随机种子决定：同样的设置会一步不差地重复同一次训练。",
    "train.sidebar_caption": "侧边栏的模型用同样的设置训练。small 预设（N=2，d_model=128）在"
                             "这里要一分钟以上才能学会复制，还可能先碰到 {seconds} 秒的时间上限；"
                             "论文的 base 模型太大，无法在共享的 CPU 上训练。",
    "train.too_big": "**这个模型太大，无法在这里训练。** {reason}",
    "train.train": "训练",
    "train.train_help": "用随机种子构建一个全新的模型并训练它。",
    "train.stop": "停止",
    "train.stop_help": "停止训练；模型会保留到目前为止学到的东西。点击别处、访问其他页面或切换语言"
                       "都不会停止训练；开始新的训练、达到时间上限，或者关闭、刷新标签页会停止它。",
    "train.evaluating": "正在停止训练并评估模型…",
    "train.starting": "正在开始…",
    "train.progress": "第 {step} / {steps} 步 · 损失 {loss} · token 准确率 {acc} · {seconds} 秒 · "
                      "大约还剩 {left} 秒",
    "train.training": "正在训练…（点击“停止”可提前结束）",
    "train.queued": "正在等待空闲的 CPU 核：本服务器同时最多训练 {slots} 个模型（每核一个），"
                    "按请求先后排队。你前面还有 {ahead} 个，约 {seconds} 秒。"
                    "排队时间不计入训练时间上限。",
    "train.shared": "另有 {n} 位学习者请求了完全相同的训练"
                    "（相同的任务、模型、训练方案和随机种子）：它只运行一次，每人都会得到一份训练好的权重副本，可以随意修改。",
    "train.failed": "训练失败：{error}。模型保留失败之前学到的内容。",
    "train.left_queue": "你在训练开始之前离开了队列：没有训练任何模型。再点击“训练”可重新排队。",
    "train.queued_next": "正在等待空闲的 CPU 核：本服务器同时最多训练 {slots} 个模型（每核一个），"
                         "按请求先后排队。下一个就轮到你，约 {seconds} 秒。"
                         "排队时间不计入训练时间上限。",
    "train.shared_one": "另有 1 位学习者请求了完全相同的训练"
                        "（相同的任务、模型、训练方案和随机种子）：它只运行一次，"
                        "每人都会得到一份训练好的权重副本，可以随意修改。",
    "train.reason.time_limit": "达到了 {seconds} 秒的时间上限",
    "train.reason.stop_request": "收到了停止请求",
    "train.reason.click": "训练期间有一次点击",
    "train.reason.stop_button": "点击了“停止”按钮",
    "train.reason.tab_closed": "本页面与服务器断开了连接：标签页被关闭或刷新，或网络中断",
    "train.other_settings": "你训练的模型对应的是另一组设置（{describe}）。点击“训练”即可为"
                            "当前的任务和侧边栏设置训练一个模型；在此之前，下面使用的是未训练"
                            "的模型。",
    "train.describe": "任务：{task}；符号：{symbols}；N={N}，d_model={d_model}，h={h}，"
                      "d_ff={d_ff}，dropout={dropout}，随机种子={seed}",
    "train.describe_digits": "数字",
    "train.describe_words": "{n} 个词",
    "train.metric_accuracy": "整序列准确率",
    "train.metric_accuracy_help": "留出评估：对 {n} 个{sequences}做贪心解码；每次停止检验则看 "
                                  "{check_n} 个新抽取的训练序列。{split}整个答案（直到 "
                                  "</s>）完全正确的比例。",
    "train.metric_loss": "最终损失（每个 token）",
    "train.metric_steps": "步数",
    "train.metric_time": "训练时间",
    "train.learned": "{step} 步后学会了：第 {step} 步的停止检验看了 {n} 个新序列，全部正确，所"
                     "以训练在那里停止。",
    "train.stopped": "训练在第 {step} / {steps} 步停止（{reason}）。模型保留了到那时为止学到"
                     "的东西。",
    "train.lr_constant": "恒定学习率 {lr}",
    "train.lr_warmup": "{warmup} 步线性预热后学习率为 {lr}",
    "train.lr_noam": "Noam，预热 {warmup} 步，系数 {factor}",
    "train.trained_caption": "训练设置：批大小 {batch}，{lr_text}，标签平滑 {smoothing}。token "
                             "准确率是在训练用的那一批数据上用教师强制测得的；"
                             "整序列准确率让模型独立生成，所以前面错一个就会毁掉整个答案。",
    "train.download": "下载训练好的模型（.pt 检查点）",
    "train.download_help": "torch.save 保存的 {keys}：可以用 torch.load(path, "
                           "weights_only=True) 加载，也可以在侧边栏（{panel}）上传，在每个页面"
                           "上查看它的内部。",
    "train.not_trained": "还没有训练。训练会在 {seconds} 秒后自动停止。",
    "train.decode_header": "3. 逐步解码",
    "train.decode_text": "贪心解码：编码器只读一次源序列；解码器从 `<s>` 开始，为每个 token "
                         "预测一个概率，把最可能的那个接到后面，再对更长的前缀运行一次，直到"
                         "生成 `</s>`。与训练不同，它现在读的是自己之前的输出。",
    "train.decode_with": "用哪个模型解码",
    "train.which_trained": "训练后的模型",
    "train.which_untrained": "未训练的模型",
    "train.which_shipped": "应用自带的日期翻译器",
    "train.which_imported": "导入的检查点（侧边栏）",
    # 束搜索与贪心解码对照
    "beam.header": "束搜索与贪心解码对照",
    "beam.text": "贪心解码每一步都认定概率最大的那个 token，选了就不能回头。"
                 "**束搜索（beam search）**：同时保留 `k` 个最可能的部分答案（这就是“束”），每"
                 "一步把其中每一个都接上词表里的每一个 token，只留下最好的几个候选。生成了 "
                 "`</s>` 的候选就算完成，离开束，但仍占一个名额：完成的答案达到 `k` 个时搜索结"
                 "束（本应用的束会随着答案完成而变窄）。`k = 1` 时，束搜索就是贪心解码。",
    "beam.size": "束宽 k",
    "beam.size_help": "每一步束里保留几个部分答案（1 就是贪心解码；论文用 4）。",
    "beam.alpha": "长度惩罚 α",
    "beam.alpha_help": "取 0 时只按 log P 给完成的答案排序；取值越大，越偏向较长的答案（论文用 "
                       "0.6）。",
    "beam.formula_text": "每多一个 token，P(Y) 就要再乘上一个小于 1 的概率，所以答案变长时 log P "
                         "只会下降，单看 log P 会偏向短答案。因此最后排序时要除以一个长度惩罚 "
                         "lp(Y)：",
    "beam.formula_caption": "|Y| 是 `<s>` 之后的 token 数，包括 `</s>`。论文（第 6.1 节）解码时"
                            "用束宽 4、α = 0.6，长度惩罚取自 Wu 等人（2016）的谷歌神经机器翻译"
                            "系统。同一步的所有候选长度相同，所以长度惩罚从不改变哪些候选留在束"
                            "里：它只影响长度不同的已完成答案之间的排名。",
    "beam.bad_size": "束宽必须是 {low} 到 {high} 之间的整数：给出的值不被接受，改用 {default}。",
    "beam.bad_alpha": "α 必须是 {low} 到 {high} 之间的数：给出的值不被接受，改用 {default}。",
    "beam.running": "正在进行束搜索…",
    "beam.fig_title": "束（k = {k}，α = {alpha}）：每一步的每个候选",
    "beam.fig_step_axis": "步（<s> 之后的 token 数）",
    "beam.fig_rank_axis": "在本步中的名次",
    "beam.fig_kept": "留在束里",
    "beam.fig_finished": "已完成（</s>）",
    "beam.fig_pruned": "被剪掉",
    "beam.fig_best_path": "最终最佳答案",
    "beam.fig_score": "得分",
    "beam.tree_caption": "每一列是一步。每个节点是一个候选，标着它的最后一个 token，并连到它所延"
                         "长的前缀：蓝色的留在束里，绿色方块是以 `</s>` 结束的已完成候选，灰色的是"
                         "这一步被剪掉的候选中最好的几个（最多 {shown} 个），画出来是为了看清剪掉"
                         "了什么。红色路径通向最终的最佳答案。把鼠标移到节点上，可以看到它的完整"
                         "序列、log P 和得分。",
    "beam.ranking": "**最终排名**：已完成的答案（到达长度上限时，也包括未完成的），按得分从高到"
                    "低排列。",
    "beam.col_rank": "名次",
    "beam.col_tokens": "答案",
    "beam.col_log_prob": "log P(Y)",
    "beam.col_length": "|Y|",
    "beam.col_lp": "lp(Y)",
    "beam.col_score": "得分",
    "beam.greedy_answer": "贪心解码的答案：",
    "beam.beam_answer": "束搜索的最佳答案：",
    "beam.agree": "束搜索（k = {k}，α = {alpha}）和贪心解码一致：答案相同，log P = {log_prob}，"
                  "得分 {score}。",
    "beam.differ": "束搜索（k = {k}，α = {alpha}）和贪心解码不一致，从第 {step} 步开始不同。贪心"
                   "解码的答案 log P = {greedy_log_prob}，得分 {greedy_score}；束搜索的最佳答案 "
                   "log P = {beam_log_prob}，得分 {beam_score}。",
    "beam.why_more_probable": "束里保留了一个在当时并非最可能的候选，而它最终通向了概率更高的答"
                              "案；贪心解码早已把它丢掉，再也回不去了。",
    "beam.why_length": "束搜索的答案整体上概率更低（log P 更低），但它更长，长度惩罚（α = "
                       "{alpha}）把它排得更靠前；α = 0 时排序只看 log P。",
    "beam.why_pruned": "这一次束搜索反而不如贪心解码：贪心解码的答案得分更高，但它的前缀在某一步"
                       "被当时看起来更好的候选挤出了束。束搜索并不尝试所有答案，它赌的是最佳答案"
                       "始终留在最好的 k 个前缀之中。",
    "train.imported_input": "侧边栏里的文本，按导入检查点自己的词表读入（它不认识的词显示为 `<unk>"
                            "`）：",
    "train.imported_caption": "应用不知道这个检查点是为哪个任务训练的，所以没有可以对照的正确答案"
                              "：下面的答案和注意力只说明模型对这段文本做了什么。",
    "train.imported_caption_task": "它的文件写明它是在“{task}”任务上训练的，所以正确答案来自这个任"
                                   "务的规则。",
    "train.imported_caption_outside": "它的文件写明它是在“{task}”任务上训练的，但这段文本不是该任"
                                      "务的输入，所以没有可以对照的正确答案。",
    "train.imported_no_text": "请在侧边栏输入文本：导入的检查点解码的是侧边栏里的文本。",
    "train.imported_no_before_after": "本节比较的是在本页训练的模型和它训练前的样子；在第 3 "
                                      "节选择“训练后的模型”或“未训练的模型”即可看到。",
    "train.untrained_caption": "这是未训练的模型（在上面训练后即可看到差别）：它的答案是一堆"
                               "乱码——这正是要说明的。",
    "train.input_sentence": "输入：你的句子",
    "train.first_words": "你的句子有 {got} 个词，但只解码前 {n} 个：以词为符号的任务，训练"
                         "序列的长度是 1 到 {n} 个词（取你句子的长度，但最多 {cap} 个，这样"
                         "几秒钟就能训练完）。模型从没见过更长的序列，而且它的位置编码只覆盖 "
                         "{positions} 个位置（含 <s> 和 </s>）。",
    "train.digits_input": "要解码的数字（用空格分隔）",
    "train.building_untrained": "正在构建未训练的模型…",
    "train.expected": "正确答案",
    "train.answer_right": "模型的答案：:green[**正确**]",
    "train.answer_wrong": "模型的答案：:red[**错误**]",
    "train.step": "解码步骤",
    "train.step_help": "第 k 步读入 <s> 和到目前为止生成的 k−1 个 token。",
    "train.step_reads": "**第 {k} 步。** 解码器读入 {n} 个 token：",
    "train.picks": "并选出最可能的下一个 token：",
    "train.layer": "层",
    "train.heads": "头",
    "train.self_title": "解码器自注意力，第 {layer} 层，{which}（{q}×{k}）",
    "train.cross_title": "交叉注意力，第 {layer} 层，{which}（{q}×{k}）",
    "train.q_decoder": "查询：解码器输入",
    "train.q_source": "查询：源序列",
    "train.k_decoder": "键：解码器输入",
    "train.k_source": "键：源序列",
    "train.no_cache_caption": "这里没有缓存之前的步骤：每一步都在整个前缀上重新运行解码器，"
                              "所以最后一行以上的各行与上一步相同。最后一行就是预测下一个 "
                              "token 的位置。",
    "train.before_after_header": "4. 训练前后的注意力",
    "train.attention": "注意力",
    "train.kind_cross": "交叉注意力（解码器 → 源序列）",
    "train.kind_enc": "编码器自注意力",
    "train.before_after_caption": "最后一层，各头的平均，使用上面的输入。对交叉注意力，两个"
                                  "模型都被喂入正确答案（教师强制），所以两边的行都是同样的"
                                  "解码器输入 `<s> y1 … ym`。",
    "train.untrained_title": "未训练（随机种子 {seed}）",
    "train.trained_title": "训练后（{steps} 步）",
    "train.pattern_copy": "一条对角线",
    "train.pattern_reverse": "一条反对角线",
    "train.pattern_sort": "每一行按顺序找到下一个符号",
    "train.pattern_caption": "对于{task}任务，请在交叉注意力中寻找这样的模式：{pattern}。编码器"
                             "自注意力不一定有清晰的模式：编码器只需要保留每个 token 的身份和"
                             "位置。",
    "train.train_first": "训练模型（第 2 节）后，这里会显示训练后的注意力。",
    "train.task_dates": "日期 → ISO",
    "train.symbols_dates": "日期任务总是按字符读入：每个字符一个 token，空格去掉。",
    "train.task_text_dates": "源序列是一个日期，用 {languages} 种语言之一（{locales} "
                             "种区域写法：同一语言在不同国家或文字下的写法）、{styles} "
                             "种格式之一写出（由 Babel 根据 Unicode CLDR "
                             "生成，也有小写形式），年份 {first}–{last}：{min_len} 到 {max_len} "
                             "个字符（不计空格）。答案是同一个日期，写成 "
                             "YYYY-MM-DD。词表：{vocab} 个 token = 4 个特殊 token + {symbols} "
                             "个字符。大约每 20 天中有一天不参与训练；训练后的准确率就在这些日子上"
                             "测量。六个随机的训练样本：",
    "train.col_date": "写出的日期",
    "train.col_iso": "答案",
    "train.model_recipe_dates": "日期训练方案：N={N}，d_model={d_model}，h={h}，d_ff={d_ff}，不用 "
                                "dropout（比应用自带的日期翻译器的 d_model = {shipped} "
                                "窄，所以学得更快）",
    "train.early_help_dates": "每一步训练用的那批日期都在更新权重之前先打分。某一步的这批日期几乎"
                              "全对时，就做一次停止检验：另外抽 {n} 个新的训练日期来考，其中至少 "
                              "{share} 答对就停止训练（要让每个日期都对，还得再训练几分钟：应用自"
                              "带的日期翻译器训练了 {minutes} 分钟）。检验只需教师强制下的一次前向"
                              "传播，得出的结论却和贪心解码一样：有后续位置掩码时，如果一个日期里"
                              "每个下一个字符都是模型给出概率最大的那个，贪心解码写出来的就正是这"
                              "个日期。开着 dropout 时，改为每 {every} 步检验一次。训练结束后显示"
                              "的准确率是在留出的日子上测的。",
    "train.adam_caption_dates": "与论文相同，使用 Adam，β = (0.9, 0.98)，ε = "
                                "1e-9。日期训练方案：{warmup} 步学习率预热后学习率为 {lr}，批大小 "
                                "{batch}，不使用标签平滑。应用自带的日期翻译器训练得更久（tools/tr"
                                "ain_dates.py：先用 Noam 调度，再用较低的固定学习率，直到在训练日期"
                                "上的检验中每种语言和格式在每月的每一天都正确；批大小 "
                                "{shipped_batch}，{shipped_steps} 步）。{shipped_checked}",
    "train.metric_accuracy_help_dates": "留出评估：对 {n} 个日期做贪心解码，这些日子从未用于训"
                                        "练（也没有用于停止检验；每次停止检验看 {check_n} 个训"
                                        "练日期）。整个答案（直到 </s>）完全正确的比例。",
    "train.held_out_missed_dates": "旁边的“{metric}”来自另一次独立的测试，在留出的日子上：{total} "
                                   "个日期中答对 {right} 个（{acc}），答错 {wrong} 个。",
    "train.learned_dates": "{step} 步后停止：第 {step} 步的停止检验看了 {n} 个新的训练日期，至"
                           "少 {share} 正确。",
    "train.describe_dates": "日期",
    "train.input.date_too_long": "模型的位置只够容纳最多 {n} 个字符的日期（不计空格），这段文字超"
                                 "出了这个长度。",
    "train.date_input": "要翻译的日期",
    "train.date_input_help": "按任务中某种语言的写法输入一个日期，例如“Montag, 23. November 2026”“"
                             "2026年11月23日星期一”或“Nov 23, 2026”。其他文字也会被读入：模型总会"
                             "给出答案。",
    "train.date_unknown": "这段文字中有 {n} 个字符从未在任务的日期中出现：模型把它们都读作 <unk>。",
    "train.date_no_expected": "应用无法判断正确答案：这段文字不是按任务的写法写出的日期。",
    "train.answer_plain": "模型的答案",
    "train.date_inside": "这段文字正是按任务的写法写出的日期，所以答案是已知的：应用用任务的每种语"
                         "言和格式写出这个日期，找到了这段文字。",
    "train.date_outside": "这段文字超出了模型训练时见过的范围（随意的文字、别的格式、1900–2099 "
                          "以外的日期或不存在的日期）：模型仍会给出答案，但这个答案不一定有意义。",
    "train.pattern_dates": "答案的每个数字看向日期中它所属的字段：年份数字看年份，月份数字看月份（"
                           "任何语言的月份名称），日数字看日",
    "train.film_ideal_dates": "答案的每个数字看它所属的字段：年份数字看年份，月份数字看月份，日数"
                              "字看日（连字符和 </s> 不计分）",
    "train.film_header": "5. 注意力影片：看注意力如何形成",
    "train.film_intro": "模型训练时，应用在整个训练过程中分散的若干时刻，记录了同一个固定输入"
                        "（见下）的注意力：每一层、每个头都有。记录时关闭 dropout，解码器的输入"
                        "是正确答案（教师强制：<s> 后接答案）。点 ▶ 从未训练的模型开始播放，"
                        "或拖动滑块到任意一步。",
    "train.film_kind": "要看的注意力",
    "train.film_title": "{kind}：每一层、每个头在训练中的变化",
    "train.film_caption": "共 {frames} 帧，{kb} KB：第 0 步（未训练），之后每 {every} 步一帧，"
                          "以及最后一步（第 {last} 步）。影片最多保留 {cap} 帧（另加最后一步）："
                          "存满时隔一帧丢一帧，并把记录间隔加倍。",
    "train.film_closeness_title": "交叉注意力各头与理想模式的接近程度",
    "train.film_ideal_copy": "对角线：每个输出看输入中相同的位置",
    "train.film_ideal_reverse": "反对角线：每个输出看输入中镜像的位置",
    "train.film_ideal_sort": "每个输出看它要写的符号在输入中的位置",
    "train.film_best": "在最后一步，最接近理想模式的是第 {i} 层的头 {j}：它把 {share} 的权重"
                       "放在理想位置上。",
    "train.film_reached": "它在第 {step} 步首次超过 {level}。",
    "train.film_not_reached": "在记录到的各步中，它都没有达到 {level}。",
    "train.film_closeness_caption": "理想模式：{pattern}。接近程度是一个头放在这些源位置上的"
                                    "注意力权重，对各输出位置取平均（写出 </s> 的那一行不计）。"
                                    "注意力在输入上均匀分布时得分为 {baseline}（虚线）。实线是"
                                    "最后一层，点线是更早的层。模型答对时也不一定有某一个头接近 "
                                    "100%：各层、各头会分担工作。",
    "train.schedule_header": "6. 学习率调度与标签平滑",
    "train.noam_expander": "Noam 学习率调度",
    "train.noam_text": "论文（§5.3）在前 warmup_steps = 4000 步线性提高学习率，然后按 1/√step "
                       "降低：`lr = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)`。The "
                       "Annotated Transformer 的 `rate()` 在此之外又乘了一个自己的 "
                       "`factor`：它的复制任务示例用 Adam，lr 0.5 × rate(factor 1, warmup "
                       "400)，相当于 factor 为 0.5；它的 Multi30k 模型用基础学习率 1.0、预热 3000 "
                       "步。峰值在 step = warmup 处；模型越宽（d_model "
                       "越大），学习率越小。论文没有说明为什么要预热；一种常见的解释（这是本应用的"
                       "解释，不是论文的）是：Adam 最初几步依据的梯度统计量还很不准，所以让这几步"
                       "保持较小。点线：The Annotated Transformer 中的示例曲线。",
    "train.smoothing_expander": "标签平滑",
    "train.smoothing_text": "标签平滑不以 one-hot 目标（全部概率都在标签上）为训练目标，而是在"
                            "标签上保留 1 − ε，把 ε 分给其他 token，只有 `<pad>` 始终为 "
                            "0。这是 The Annotated Transformer 的做法：其余 V − 2 个 token "
                            "各得 ε / (V − 2)。论文引用的 Szegedy 等人（2016）则把 ε 分给全部 "
                            "V 个类别，标签本身也算在内。这样可以防止模型变得过于确定；论文（ε"
                            " = 0.1）报告说困惑度变差，但 BLEU 提高了。损失是到这个分布的 KL "
                            "散度：只有当模型恰好预测出这个平滑后的目标分布时它才为 "
                            "0，所以完全确定的（one-hot）预测现在也会产生损失。标签是 `<pad>` "
                            "的那一行全为 0：填充不产生损失。",
    "train.at_smoothing_text": "**The Annotated Transformer 的两个例子，用本应用的 "
                               "`LabelSmoothing` 算出。** 第一个：词表有 5 个 token，填充的 id 是 "
                               "0，ε = 0.4，目标是 [2, 1, 0, 3, 3]。第二个：只有一个目标，即标签 "
                               "1，模型对它越来越有把握：概率为 [0, x/d, 1/d, 1/d, 1/d]，其中 d = "
                               "x + 3，x 从 1 到 99（即 The Annotated Transformer 的 `range(1, "
                               "100)`），用 ε = 0.1 计算损失。",
    "train.at_smoothing_caption": "标签上是 {label}，既不是标签也不是填充的 {k} 个 token "
                                  "上各是 {other} = {eps}/{k}；填充那一列是 0，目标为填充 id"
                                  " 0 的那一行全是 0（它不产生损失）。",
    "train.confidence_caption": "损失在 x = {x} 时最低，这时标签的概率是 "
                                "{p}：恰好等于平滑后的目标分布里的 1 − "
                                "ε。更有把握的预测反而受罚：到 x = {top} 时，损失从 {low} "
                                "又升到了 {last}。不用标签平滑的话，它会一直降向 0。",
    "train.smoothing_caption": "词表共 {n} 个 token：每个既不是标签也不是 <pad> 的 token 分到 "
                               "ε/(size − 2) = {share}。",
    "train.smooth_row": "标签 {token}",
    "train.still_stopping": "{seconds} 秒后训练仍未停止（服务器正忙）。训练停下后会显示结果："
                            "请稍后点击任意控件。",
    "train.held_out_missed": "旁边的“{metric}”来自另一次独立的测试，即留出评估：另外 {total} "
                             "个序列中答对 {right} 个（{acc}）。通过一次检验并不等于每个序列都对；"
                             "答错的 {wrong} 个序列长度为 {lengths}。",
    "train.dropped_words": "你的句子中有 {k} 个词被略去了：它们不在任务的符号之中（任务只取前 "
                           "{limit} 个不同的词）。",
    "train.input_inside": "这个输入和训练序列是同一类：它的长度 {length} "
                          "在训练抽取的范围内（{min_len} 到 {max_len}），而且全是任务中的符号。",
    "train.input_outside": "这个输入和训练序列不是同一类（训练序列长度为 {min_len} 到 "
                           "{max_len}，只含任务中的符号）：它的长度是 "
                           "{length}{unknown}。在这里答错，说明不了模型学到了什么。",
    "train.wrong_inside": "这个输入在模型训练过的范围之内，所以这是一个真正的错误：在留出评估中，"
                          "长度为 {length} 的 {total} 个序列答对了 {right} "
                          "个。训练更久一些（关闭“学会后自动停止”或增加训练步数），这类错误会更少"
                          "。",
    "train.wrong_inside_none": "这个输入在模型训练过的范围之内，所以这是一个真正的错误；留出评估中"
                               "没有抽到长度为 {length} 的序列。训练更久一些（关闭“学会后自动停止”"
                               "或增加训练步数），这类错误会更少。",
    # 训练控件与解码输入的校验（explorer/training/settings.py、explorer/training/task.py）
    "train.field.task": "任务",
    "train.field.symbols": "符号",
    "train.field.schedule": "学习率调度",
    "train.field.model": "模型",
    "train.field.steps": "训练步数",
    "train.field.warmup": "预热步数",
    "train.field.lr": "学习率",
    "train.field.factor": "Noam 系数",
    "train.field.smoothing": "标签平滑",
    "train.err.choice": "{name}必须是以下之一：{allowed}；改用{default}。",
    "train.err.whole": "{name}必须是 {low} 到 {high} 之间的整数；改用 {default}。",
    "train.err.number": "{name}必须在 {low} 到 {high} 之间；改用 {default}。",
    "train.err.batch": "批大小必须是以下之一：{allowed}；改用 {default}。",
    "train.err.early_stop": "“学会后自动停止”开关只能是开或关；改用开。",
    "train.note.too_few_words": "你的句子中不同的词少于 2 个，不足以构成任务的符号，所以改用"
                                "数字。",
    "train.note.no_words": "你的句子无法切分成词，所以改用数字。",
    "train.note.too_many_words": "你的句子有 {n} 个不同的词；任务只使用前 {limit} 个，这样"
                                 "几百步之内仍然学得会。",
    "train.input.not_text": "输入必须是文本。",
    "train.input.too_long": "输入太长：最多 {n} 个符号。",
    "train.input.empty": "请至少输入一个符号，例如 3 1 4 1 5。",
    "train.input.bad_digits": "只能使用 0 到 9 的数字，并用空格分隔；第 {which} 个符号不是数字。",
    "train.input.bad_words": "只能使用任务中的符号，并用空格分隔；第 {which} 个符号不在其中。",
    "train.input.too_many": "模型训练时的序列最多 {n} 个符号；这个输入有 {got} 个。",
    "sidebar.layer_norm_help": "两种层归一化公式。**std + 1e-6**（The Annotated Transformer）：(x "
                               "− mean) / (std + 1e-6)，std 是无偏标准差（除以 d_model − 1），eps "
                               "加在标准差上、平方根之外。**nn.LayerNorm**（PyTorch）：(x − mean) "
                               "/ √(var + 1e-5)，var 是有偏方差（除以 d_model），eps "
                               "在平方根之内。两者之后都用可学习的向量做缩放和平移。有偏标准差小一"
                               "个因子 √((d_model − 1)/d_model)，所以 nn.LayerNorm 的输出大约大 "
                               "1/(2·d_model)：d_model = 32 时约 1.6%，512 时约 "
                               "0.1%。“模型”页会在你的句子上把它算出来。",
    "sidebar.tie_weights_help": "论文（§3.4）把两个词嵌入层和 softmax "
                                "之前的线性层绑定为同一个权重矩阵（这时源语言和目标语言共用一个"
                                "词表）。The Annotated Transformer 的 `make_model` "
                                "并没有绑定权重：它的绑定代码写在一个 `if False:` "
                                "分支里。这里默认也不绑定。有一篇代码讲解说论文的编码器和解码器"
                                "用各自的词嵌入：其实论文把它们绑定为同一个权重矩阵。",

    # ---- 模型来源（explorer/app/sources.py，侧边栏） ----
    "source.label": "要查看的模型",
    "source.help": "每个页面都展示你的文本经过这个模型的过程。未训练：由随机种子生成的随机权重，"
                   "规模由下面的设置决定。日期翻译器：随应用一起提供的已训练模型，能把用 "
                   "{languages} 种语言"
                   "书写的日期转换成 YYYY-MM-DD（把一个日期填作源句子）。你训练的模型：本次会话中"
                   "在“训练与解码”页最后训练的模型。导入的检查点：你在下面上传的检查点。",
    "source.untrained": "未训练（随机权重）",
    "source.dates": "已训练：日期翻译器",
    "source.yours": "你训练的模型",
    "source.imported": "导入的检查点",
    "source.dates_missing": "本次安装中缺少日期翻译器的文件（models/dates.pt），因此这里显示的是未"
                            "训练的模型。",
    "source.yours_missing": "你在本次会话中还没有训练过模型：先去“训练与解码”页训练一个。"
                            "在此之前显示的是未训练的模型。",
    "source.yours_running": "你的模型还在“训练与解码”页上训练；训练停止后就会显示在这里。"
                            "在此之前显示的是未训练的模型。",
    "source.imported_missing": "还没有导入检查点：在下面的“查看你自己的检查点”中加载一个。"
                               "在此之前显示的是未训练的模型。",
    "source.tokens_fixed": "这个模型训练时的文本就是这样切分的，所以它也这样读你的文本。",
    "source.examples": "试一个日期（同一天的其他语言写法）",
    "source.target_placeholder": "留空：使用模型自己的答案",
    "source.train_own": "侧边栏显示的是模型“{name}”。这里的训练总是从一个全新的、未训练的模型"
                        "开始：快速训练方案的模型，或“侧边栏的模型”，后者指你自己的设置（在侧边栏"
                        "选择“未训练”即可查看和修改）。",
    "source.fixed": "模型“{name}”决定了规模和选项（这里只读显示）。在上面选择“未训练”即可"
                    "恢复你自己的设置。",
    "source.params": "参数量（{name}）",
    "source.dates_weights": "**这是一个训练过的模型**：随应用提供的日期翻译器（训练了 {steps} "
                            "步）。{checked}把任意一种它学过的语言写的日期填作源句子，例如 "
                            "`Montag, 23. November 2026` 或 `2026年11月23日`。",
    "dates.cells": "在 {n} 个它从未见过的日期上逐个组合检查（共 {cells} 个组合：每种语言和格式"
                   "配上每月的每一天，以及配上每个月份），{result}。",
    "dates.worst_cell": "最弱的组合是{cell}，整序列准确率为 {accuracy}（{total} 个中对了 "
                        "{right} 个）",
    "dates.all_cells": "每个组合的整序列准确率都是 100%，包括日期最少的组合{cell}（{total} 个中"
                       "对了 {right} 个）",
    "dates.average": "在 {n} 个它从未见过的日期上整序列准确率为 {accuracy}（这是平均值：某种语言"
                     "和格式即使在每月的某一天总是出错，也几乎不影响它）。",
    "dates.cell_day": "“{language}、写成 `{example}` 这种格式、每月 {value} 日”",
    "dates.cell_month": "“{language}、写成 `{example}` 这种格式、{value} 月”",
    "source.dates_wrong": "模型答错了：这段文字正是模型训练时学过的日期写法（应用用任务中的某种语言"
                          "和格式写这个日期，得到的正是这段文字），所以正确答案是 "
                          "**{expected}**。下面的注意力是模型自己的，包括这个错误。",
    "source.yours_weights": "**你训练的模型**（{task}，{steps} 步）：这是它在“训练与解码”页上"
                            "学到的注意力。",
    "source.answer": "目标框是空的，因此解码器读入的是模型自己生成的答案：**{answer}**。于是交叉注"
                     "意力显示的是：每个输出 token 在生成时关注了源句子的哪些位置。",
    "source.no_answer": "目标框是空的，而模型在这里没有给出答案，所以解码器只读入 `<s>`。",
    "source.unknown": "你的 token 中有 {n} 个不在这个模型的词表里，被读作 `<unk>`（见侧边栏的 "
                      "token 表）。",
    "source.unknown_tokens": "**{name}**不认识你的句子 {total} 个 token 中的 {n} 个（见下方）："
                             "它把它们都读作 `<unk>`，所以它对这些 token 显示的结果没有多少意义。",
    "source.use_known_example": "使用模型认识的例句",
    "source.use_known_example_help": "用它的任务自己的输入作为句子（目标框留空）。",
    "source.dates_outside": "这看起来不像模型训练时见过的日期（1900 到 2099 "
                            "年之间、用任务中某种语言和格式书写的日期）。它仍然会给出答案，因为模"
                            "型总会输出点什么；请把这里的答案和注意力看作模型在训练数据之外的猜测"
                            "。",
    "source.alignment": "这是交叉注意力在 {n} 个模型从没见过的日期上的测量结果：在解码器第 "
                        "{layer} 层（各头取平均），**{year}** 的年份数字、**{day}** 的日数字和 "
                        "**{month}** 的月份数字，最关注的都是源句子里自己所来自的那一段（月份写成"
                        "单词时，比如 \"November\" 或 \"nov.\"，月份数字的这个比例是 {month_word}"
                        "）。在下面选“交叉注意力”和第 {layer} 层，就能看到你输入的日期是什么情况。",
    "source.dates_scope": "训练数据：英语（美国、英国）、中文（简体、繁体）、德语、法语、西班牙语、"
                          "日语和韩语；完整、长、中等和缩写格式，也包括小写；年份 1900–2099。"
                          "没有包括：两位数的年份（23.11.26 是 1926 年还是 2026 年？），以及"
                          "日和月的顺序因国家而异的纯数字日期（03/04/2026）。",

    # ---- 模型页：先看一个训练过的模型（explorer/sections/preview.py） ----
    "preview.title": "**先看一个训练过的模型**。本页的模型由侧边栏的设置构建，权重是随机的。"
                     "应用还自带一个训练好的模型：日期翻译器，能把 {languages} 种语言写的日期"
                     "转换成 "
                     "YYYY-MM-DD。改一改日期，看看每个输出数字关注的是哪里。",
    "preview.input": "一个日期（英语、中文、德语、法语、西班牙语、日语或韩语均可）",
    "preview.unreadable": "输入一个日期（最多 {n} 个字符），就能看到翻译器的答案。",
    "preview.answer": "它的答案：**{answer}**。下图每一行是解码器的一步：某个 token "
                      "所在的行负责选出它后面的那个 token（`<s>` 这一行写出第一个数字）。"
                      "颜色深的格子是这一步最关注的日期字符（解码器第 {layer} 层的交叉注意力，"
                      "各头取平均）。",
    "preview.figure_title": "日期翻译器的交叉注意力，解码器第 {layer} 层",
    "preview.everywhere": "在每个页面上查看这个模型",
    # ---- 7. 破坏一个部件（explorer/sections/experiment.py）----
    "exp.header": "7. 破坏一个部件，与正确的模型并排训练",
    "exp.intro": "下面每个开关只改变一处：`TransformerConfig` 的一个字段（在“模型”页的模块树和代码"
                 "里都能看到），或者训练时的标签平滑。**训练两个模型**会让正确的模型和被破坏的模型"
                 "从相同的初始权重出发，在相同的任务、相同的批和相同的步数下训练（用第 2 节的模型"
                 "和设置；开启 dropout 时，两者丢弃哪些单元也由随机种子决定），然后用同样的方法测"
                 "量两者。",
    "exp.break_label": "要破坏的部件",
    "exp.break_help": "通常选一个，看看这个部件的作用；也可以同时选几个（甚至全部），照样能训"
                      "练，但结果就说不清是哪个部件造成的。",
    "exp.bad_none": "请至少选择一个要破坏的部件。",
    "exp.combined": "**同时破坏了 {n} 个部件。** 被破坏的模型缺少所有这些部件，所以下面的数字"
                    "说不清是哪个部件造成了什么；一次只破坏一个，才能看清每一个的作用。",
    "exp.break.decoder_mask.none": "去掉后续位置掩码（解码器能看到后面的位置）",
    "exp.break.decoder_mask.inverted": "后续位置掩码取反（masked_fill(mask == 1)）",
    "exp.break.positional_encoding": "去掉位置编码",
    "exp.break.scale_scores": "去掉 √d_k 缩放",
    "exp.break.residual": "去掉残差连接",
    "exp.break.smoothing": "标签平滑 ε（训练设置）",
    "exp.steps": "每个模型的步数",
    "exp.steps_help": "两个模型都正好训练这么多步，不提前停止，所以预算相同；每个模型最多训练 "
                      "{seconds} 秒。",
    "exp.eps": "被破坏的模型的 ε（正确的模型用 0）",
    "exp.bad_choice": "只能破坏列出的部件；其他的已被忽略。",
    "exp.bad_steps": "步数必须是 {low} 到 {high} 之间的整数，改用 {default}。",
    "exp.bad_smoothing": "ε 必须是 {low} 到 {high} 之间的数，改用 {default}。",
    "exp.bad_one_mask": "后续位置掩码只能去掉或取反，不能同时两样；只用“{default}”。",
    "exp.what.decoder_mask.none": "**改动：**`TransformerConfig(decoder_mask=\"none\")`。"
                                  "`Decoder.forward` 把 `tgt_mask` 交给 `decoder_self_mask`"
                                  "，它只保留填充的部分，于是解码器的每个位置都能关注解码器输"
                                  "入的每个位置，包括后面的位置。论文的解码器防止的正是这一点"
                                  "（§3.2.3）。",
    "exp.what.decoder_mask.inverted": "**改动：**`decoder_mask=\"inverted\"`，也就是先构造全 1 "
                                      "的下三角掩码、再用 `masked_fill(mask == 1, -1e9)` 写入 "
                                      "−1e9 的错误：每个位置只能关注*后面*的位置，不能关注自己和前"
                                      "面的位置（“掩码”页用你的句子演示了这一点）。",
    "exp.what.positional_encoding": "**改动：**`positional_encoding=False`：编码器和解码器里"
                                    "的 `PositionalEncoding` 都加上 0，而不是正弦信号（§3.5）。",
    "exp.what.scale_scores": "**改动：**`scale_scores=False`：`attention()` 直接用 Q·Kᵀ，"
                             "而不是 Q·Kᵀ / √d_k（§3.2.1）。",
    "exp.what.residual": "**改动：**`residual=False`：每个 `SublayerConnection` 都去掉了 "
                         "`x +`，子层的输出取代它的输入，而不是加在输入上（§3.1）。",
    "exp.what.smoothing": "**改动：**第二个模型用你选的 ε 向平滑后的目标分布训练（论文用 ε = "
                          "0.1，§5.4），第一个用 ε = 0（one-hot "
                          "目标）。这里的“被破坏”只是“改变了”的意思：模型本身完全一样。",
    "exp.why.decoder_mask.none": "**为什么会失败。** 训练时，解码器输入是右移一位的答案（以 "
                                 "`<s>` 开头），所以位置 i 能读到第 i + 1 个 token，也就是它"
                                 "要预测的那个 token。照抄它不需要源句子的任何信息，损失几乎"
                                 "降到 0。解码时模型一次写一个 token，当前位置后面的位置还不"
                                 "存在：它学会去看的东西根本不在那里。",
    "exp.why.decoder_mask.inverted": "**为什么会失败。** 每个位置只能看后面的位置，而位置 i "
                                     "+ 1 上正是位置 i 要预测的 token，所以训练和没有掩码一样"
                                     "容易。解码时，真正用到的预测总是来自最新的、也就是最后"
                                     "一个位置，它后面没有位置可看：所有键都被屏蔽，它只能对"
                                     "所有位置取平均。",
    "exp.why.positional_encoding": "**预期。** 没有位置信息，编码器对一个 token 的输出与它所"
                                   "在的位置无关（把源句子重新排列，输出也按同样方式重新排列"
                                   "），所以交叉注意力能按*是什么*找到源 token，却不能按*在哪"
                                   "里*找到它。复制和反转需要知道“在哪里”：第 n 个源 token "
                                   "是哪个。排序只需要“是什么”：源句子无论怎么排列，答案都一"
                                   "样。",
    "exp.why.scale_scores": "**预期。** d_k = {d_k} 时，未缩放的分数是缩放后的 √{d_k} ≈ {root} "
                            "倍，方差是 {d_k} 倍（§3.2.1，脚注 4）。分数越大，softmax 越接近 "
                            "one-hot 的权重，那里的梯度非常小，学习可能变慢甚至停滞。d_k "
                            "越大，影响越大。",
    "exp.why.residual": "**预期。** 没有残差连接，token 自己的词嵌入和位置只能经过注意力和前馈网络"
                        "才能到达下一层，梯度也没有直接回到前面各层的路径。即使只有一层也会受影响"
                        "，层数越多影响越大（残差连接正是为此提出的，He 等，2016）。",
    "exp.why.smoothing": "**预期。** ε = {eps} 时，目标分布在正确的 token 上放 {keep}，把 {eps} "
                         "分给除 `<pad>` 以外的其他 token（The Annotated Transformer "
                         "的写法）。模型被训练得保持不确定。论文说这会损害困惑度，但提高了准确率和"
                         " BLEU（§5.4）。常见的一种解读（是我们的说法，不是论文的）是：它防止模型"
                         "死记训练数据，而这里源源不断的新序列本来就无法死记。",
    "exp.measured": "**测量结果**（同样的 {n} 个{sequences}）：教师强制的 token "
                    "准确率（输入正确答案，和训练时一样），被破坏的模型 {tf_bad}，正确的模型 "
                    "{tf_ok}；贪心解码的整序列准确率（模型自己解码）{greedy_bad}，对比 "
                    "{greedy_ok}；最后的训练损失 {loss_bad}，对比 {loss_ok}。",
    "exp.verdict_gap": "**关键就在这个差距。** 喂给它正确答案时，被破坏的模型能答对 {tf_bad} 的 "
                       "token；可让它自己解码，整序列准确率只有 {greedy_bad}，正确的模型则是 "
                       "{greedy_ok}。训练时的准确率到解码时就保不住，说明模型靠的是只有训练时才有"
                       "的东西。",
    "exp.verdict_worse": "**被破坏的模型明显更差：**训练同样的步数后，它的整序列准确率是 "
                         "{greedy_bad}，正确的模型是 {greedy_ok}。",
    "exp.verdict_better": "**这一次被破坏的模型反而更好**（整序列准确率 {greedy_bad}，正确的模型"
                          "是 {greedy_ok}）：在这样的模型规模和步数下，这个部件不是必需的。",
    "exp.verdict_same": "**在这样的模型规模和步数下，这个部件这次没有带来明显差别**（整序列准确率 "
                        "{greedy_bad}，正确的模型是 {greedy_ok}）。",
    "exp.hint.decoder_mask.none": "步数更多时，正确的模型会更好；被破坏的模型学不到它需要的东"
                                  "西。",
    "exp.hint.decoder_mask.inverted": "步数更多时，正确的模型会更好；被破坏的模型学不到它需要"
                                      "的东西。",
    "exp.hint.positional_encoding": "试试复制或反转，它们的答案取决于位置。",
    "exp.hint.scale_scores": "d_k 越大影响越大：在第 2 节选择侧边栏的模型，设 d_model 128、"
                             "h = 1（d_k = 128）。",
    "exp.hint.residual": "层数越多，残差连接越重要：在第 2 节选择侧边栏的模型，设 N = 4。",
    "exp.hint.smoothing": "标签平滑是一种正则化：模型有可能死记固定的训练集时，它才有用。",
    "exp.run": "训练两个模型",
    "exp.training": "先训练正确的模型，再训练被破坏的模型…",
    "exp.progress": "{name}：第 {step} / {steps} 步，损失 {loss}，{seconds} 秒",
    "exp.correct": "正确的模型",
    "exp.broken": "被破坏的模型",
    "exp.broken_named": "被破坏：{name}",
    "exp.cannot": "用这些设置无法训练：{reason}",
    "exp.not_run": "选好要破坏的部件，再点击**训练两个模型**：两个模型依次训练，训练完后一起测量。",
    "exp.incomplete": "实验在{name}训练第一步之前就停止了，所以没有可比较的结果；请再按一次**训练"
                      "两个模型**。",
    "exp.trained": "已训练：{describe}；每个模型计划 {steps} 步（表中是实际训练的步数），从相"
                   "同的初始权重出发，用相同的批。准确率基于 {n} 个{sequences}。",
    "exp.col_measure": "指标",
    "exp.row_loss": "最后的训练损失",
    "exp.row_tf": "教师强制的 token 准确率",
    "exp.row_greedy": "贪心解码的整序列准确率",
    "exp.row_steps": "训练步数",
    "exp.row_seconds": "训练时间",
    "exp.attn_header": "两个模型看同一个输入",
    "exp.attn_caption": "探测输入，并输入正确答案（教师强制）：第 0 层的解码器自注意力和第 "
                        "{layer} 层的交叉注意力，各自对所有头取平均。上方是每个模型自己写出的"
                        "结果（贪心解码）。",
    "exp.answer": "**{name}** 写出：",
    "exp.self_title": "解码器自注意力，第 0 层（各头平均）",
    "exp.cross_title": "交叉注意力，最后一层（各头平均）",
    "url.label.pe_k": "位置编码的偏移量 k",
    "url.label.ko_part": "消融的子层",
    "url.label.ko_open": "消融实验（展开与否）",
    "url.label.tr_symbols": "训练用的符号",
    "url.label.tr_model": "要训练的模型",
    "url.label.tr_steps": "训练步数",
    "url.label.tr_batch": "批大小",
    "url.label.tr_smoothing": "标签平滑",
    "url.label.tr_schedule": "学习率调度",
    "url.label.tr_lr": "学习率",
    "url.label.tr_warmup": "预热步数",
    "url.label.tr_factor": "Noam 系数",
    "url.label.tr_early": "“学会后自动停止”",
    "url.label.tr_which": "用来解码的模型",
    "url.label.tr_input": "要解码的输入",
    "url.label.tr_step": "解码步骤",
    "url.label.tr_beam": "束宽",
    "url.label.tr_alpha": "长度惩罚 α",
    "url.label.exp_breaks": "要破坏的部件",
    "train.input.date_empty": "请输入要翻译的日期，例如“Nov 23, 2026”或“2026年11月23日”。",
    "train.input.bad_digits.one": "只能使用 0 到 9 的数字，并用空格分隔；第 {which} "
                                  "个符号不是数字。",
    "train.input.bad_words.one": "只能使用任务中的符号，并用空格分隔；第 {which} 个符号不在其中。",
    "train.list_sep": "、",
    "train.quoted": "“{text}”",
    "train.model_recipe_label": "任务的训练方案",
    "train.model_sidebar_label": "侧边栏的模型",
    "train.status": "正在训练“{task}”：第 {step} / {steps} 步，大约还剩 {left} 秒",
    "train.status_queued": "正在训练“{task}”：等待空闲的 CPU 核（前面还有 {ahead} 个）",
    "train.status_starting": "正在训练“{task}”：正在启动…",
    "train.goes_on": "你继续使用应用的其他部分时（本页或其他页面，任一语言），训练都会继续进行，短"
                     "暂断线也不影响。“停止”、开始新的训练或达到时间上限会结束它；本标签页断开连接"
                     "（被关闭或刷新）{reconnect} 秒，或在有同学等待空闲 CPU 核时断开 {gone} "
                     "秒，也会结束它。训练结束后，它就成为你训练好的模型。",
    "train.previous_below": "下面是你之前训练好的模型，直到这次训练结束。",
    "train.replaying": "重放：第 {step} / {steps} 步 · 损失 {loss} · {seconds} 秒",
    "train.replay_frame": "影片输入在第 {step} 步：交叉注意力，最后一层，各头平均",
    "train.again": "这次训练之前已经做过（相同的任务、模型、训练方案和随机种子），所以结果立即出现"
                   "：训练是确定性的，再训练一次也会一步不差地得到相同的权重，大约需要 {seconds} "
                   "秒。你可以按训练时的速度重看一遍，或者换下一个随机种子重新训练。",
    "train.replay": "重看一遍",
    "train.replay_help": "按模型训练时的速度重放记录下来的损失曲线和注意力；任意点击都会结束重放。"
                         "不会重新训练。",
    "train.reseed": "用随机种子 {seed} 重新训练",
    "train.reseed_help": "把侧边栏的随机种子换成下一个（初始权重和每批数据都会不同），并现场训练。",
    "train.download_keep": "你训练好的模型只存在于这个浏览器标签页中：刷新页面或关闭标签页都会丢失"
                           "它。下载下来即可保存；侧边栏的“{panel}”可以重新载入。",
    "train.reason.new_training": "开始了新的训练",
    "train.reason.question_gone": "课堂已转到别处，不再是这次训练所针对的问题",
    "train.held_out_missed_same": "旁边的“{metric}”来自另一次独立的测试，即留出评估：另外 {total} "
                                  "个序列中答对 {right} 个（{acc}）。通过一次检验并不等于每个序列"
                                  "都对；答错的 {wrong} 个序列长度都是 {lengths}。",
    "train.n_unknown": "，其中有 {n} 个符号不在任务里",
    "train.n_unknown.one": "，其中有 1 个符号不在任务里",
    "train.dropped_words.one": "你的句子中有 1 个词被略去了：它不在任务的符号之中（任务只取前 "
                               "{limit} 个不同的词）。",
    "train.date_unknown.one": "这段文字中有 1 个字符从未在任务的日期中出现：模型把它读作 <unk>。",
    "train.step_reads.one": "**第 {k} 步。** 解码器读入 1 个 token：",
    "train.trained_title.one": "训练后（1 步）",
    "train.no_model_here": "在第 2 节的设置能得到一个可以训练的模型之前，这里没有内容（第 2 "
                           "节说明了该改什么）。",
    "train.no_input_here": "请在第 3 节输入要解码的内容：本节会显示它在训练前后的注意力。",
    "train.film_none": "请在第 2 节训练一个模型：训练时，应用会记录一个输入的注意力，本节会把它播"
                       "放出来。",
    "exp.stopped": "{name}：训练在第 {step} / {steps} 步停止（{reason}）。",
    "fig.attention.head_short": "头{j}",
    "model.arch_header_loaded": "所查看模型的结构",
    "ko.whose_shared": "看这个模型的所有人共用同一份模型，所以消融从不改写它。",
    "ko.whose_session": "这个模型只存在于你的会话中；消融同样不会改变它。",
    "ko.acc_vs_made": "页面顶部的信息框给出的是制作模型时在另外 {made_n} "
                      "个留出日期上测得的准确率（{made}）：日期不同，所以两个数字可能不一样。",
    "source.reads_target": "“{name}”的解码器读取的是上面输入的目标句子（教师强制），而不是它自己的"
                           "回答：解码器的注意力显示的是这段文字的各行。",
    "source.clear_target": "清空目标句子：显示模型自己的回答",
    "ckpt.start_nameless": "这个检查点的目标词表里没有名为 <s> 的 token：各页都从 id {start} "
                           "开始解码，因为 The Annotated Transformer 的词表把 <s> "
                           "放在这里。上传它的 token 列表即可给各个 token 命名。",
    "sidebar.preset_tiny": "微型（tiny）",
    "sidebar.preset_small": "小型（small）",
    "sidebar.preset_paper_base": "论文 base 模型（paper base）",
    "ckpt.upload_button": "上传",
    "ckpt.upload_limit": "每个文件最大 {mb} MB：{types}",
    "exp.goes_on": "你继续使用应用的其他部分时（本页或其他页面，任一语言），两个模型都会继续训练。"
                   "“停止”或再次点击**训练两个模型**会结束这次实验；两个模型都训练完后，结果会显示"
                   "在这里。",
    "exp.status": "破坏一个部件：{name}，第 {step} / {steps} 步",
    "exp.status_queued": "破坏一个部件：等待空闲的 CPU 核（前面还有 {ahead} 个）",
    "exp.status_measuring": "破坏一个部件：正在测量两个模型…",
    "exp.failed": "实验失败：{error}。",
    "intro.comp.Embeddings_unscaled": "把 token id 变成向量（不乘以 √d_model：这项缩放已关闭）",
    "intro.comp.Encoder_post": "N 个编码器层，没有最后的层归一化（后置归一化：每层本身已以层归一化"
                               "结尾）",
    "intro.comp.Decoder_post": "N 个解码器层，没有最后的层归一化（后置归一化：每层本身已以层归一化"
                               "结尾）",
    "train.held_split": "留出的是长度为 {lengths} 的源序列中每 {share} 个里的 1 "
                        "个，由序列的哈希值决定。",
    "train.held_short": "长度为 {lengths} 的序列全部要用于训练（每种长度最多 {count} "
                        "个），所以不留出。",
    "train.held_short.one": "长度为 {lengths} 的序列全部要用于训练（只有 {count} "
                            "个），所以不留出。",
    "train.held_none": "只有 {symbols} 个符号时，这个任务的不同序列太少，无法留出：评估抽取的序列"
                       "训练时也可能见过。",
    "train.held_none.one": "只有 {symbols} 个符号时，这个任务的不同序列太少，无法留出：评估抽取的"
                           "序列训练时也可能见过。",
    "train.held_out_missed_same.one": "旁边的“{metric}”来自另一次独立的测试，即留出评估：另外 "
                                      "{total} 个序列中答对 {right} "
                                      "个（{acc}）。通过一次检验并不等于每个序列都对；答错的那一个"
                                      "序列长度为 {lengths}。",
    "mask.leak_header": "写入 −1e9 后，后面的位置还会漏过来一点信息吗？",
    "mask.leak_text": "有一篇代码讲解说，执行 `masked_fill(mask == 0, -1e9)` 之后，softmax "
                      "仍会让后面的位置漏过来“一点点”信息。在 float32 下并非如此，而本模型正是用 "
                      "float32 计算的：在上面你的分数上，**{blocked} 个**被屏蔽的权重中有 "
                      "**{zeros} 个**正好是 0.0（表格第一行）。softmax 计算的是 exp(分数 − "
                      "该行最大分数)，而 float32 的 exp 在指数低于 {cut32} 时一律给出 0（float32 "
                      "能表示的最小正数是 {tiny}）；−1e9 "
                      "比这个界限还低约十亿。只有当写入的值减去该行最大分数高于 "
                      "{cut32}，也就是写入的值相对于分数太小时，被屏蔽的权重才不为 0：写入 "
                      "{small} 时，你的分数上被屏蔽权重的最大值是 {small_leak}（第二行）。float16 "
                      "的范围小得多：它能表示的最大绝对值是 {f16max}，所以根本无法写入 "
                      "−1e9，torch 会报溢出错误（第三行）。改用 float16 自己的最小值 {f16min} "
                      "时，被屏蔽的权重又正好是 0；但 float16 的 exp 只在指数低于 {cut16} "
                      "时才给出 0，所以在 float16 下写入 {small} 得到 {small16_leak}（最后一行）。",
    "mask.col_dtype": "dtype",
    "mask.col_fill": "写入的值",
    "mask.col_zeros": "正好为 0 的被屏蔽权重",
    "mask.col_largest": "被屏蔽权重的最大值",
    "mask.leak_overflow": "torch 报溢出错误",
    "mask.unsqueeze_text": "有一篇代码讲解在这里写的是 `mask = mask.unsqueeze(0)`。这样新维度加在"
                           "了批的维度前面，掩码的句子维度就与分数的头维度对齐了。下表在上面的两个"
                           "句子和本模型的头数上比较这两种写法（箭头后面是掩码与分数广播后的形状）"
                           "：",
    "mask.unsqueeze_caption": "这里有 {batch} 个句子、h = {h}，unsqueeze(0) "
                              "{verdict}只有一批只含一个句子时，两种写法才都得到正确的掩码。那篇代"
                              "码讲解自己的测试之所以能运行，是因为它的掩码 {seed_mask} "
                              "是每个头一个矩阵，而不是每个句子一个：unsqueeze(0) 把它变成 "
                              "{seed_wrong}，广播后为 {seed_result}。同样大小的按句子给出的掩码 "
                              "{batch_mask} 用 unsqueeze(0) 会出错（{batch_wrong} 对分数 "
                              "{scores}），用 unsqueeze(1) 则正常（{batch_right}，广播后为 "
                              "{batch_result}）。",
    "mask.unsqueeze_fails": "会报错：句子维度对上了头维度，而两者大小不同。",
    "mask.unsqueeze_mixes": "不报错，但结果是错的：每个句子的第 j 个头都用了第 j 个句子的掩码。",
    "mask.unsqueeze_error": "出错：大小不匹配",
    "mask.unsqueeze_mixed": "{shape}，但第 j 个头拿到第 j 个句子的掩码",
    "mask.unsqueeze_src_mask": "src_mask（编码器自注意力）",
    "mask.unsqueeze_tgt_mask": "tgt_mask（解码器自注意力）",
    "mask.col_mask": "掩码",
    "mask.col_shape": "形状",
    "mask.col_scores": "分数 (batch, h, q, k)",
    "train.loss_expander": "每个 token 的损失：NLLLoss 与 CrossEntropyLoss",
    "train.nll_text": "生成器最后一步是 `log_softmax`：它在每个位置上给出对数概率 x，词表中每个 "
                      "token 一个，都不大于 0。在它们上面计算的损失是 "
                      "`nn.NLLLoss`（负对数似然）：给定 x 和标签 y，它返回 "
                      "**−x[y]**，再对所有标签取平均。有一篇代码讲解写 NLLLoss 返回 "
                      "x[y]，漏掉了负号。这个负号很重要：模型给标签的概率越大，x[y] 越接近 "
                      "0，所以如果损失是 x[y]，它在标签概率为 0 "
                      "时最小，训练就会教模型避开正确答案。",
    "train.nll_live": "**在你的句子上**，使用侧边栏选中的模型：解码器位置 0 读入 `<s>`，它的标签 "
                      "y 是目标序列的第一个 token（id {y}）。生成器给它的 x[y] = {x_y}（概率 "
                      "{p}），`nn.NLLLoss()(x, y)` 返回 **{loss}** = −x[y]。在你的句子的全部 {m} "
                      "个标签上，x[y] 的平均值是 {mean_x_y}，NLLLoss 返回 {mean_loss}；本应用的 "
                      "`LabelSmoothing` 取 ε = 0、再除以 {m} 个标签，得到的也是 {ours}。",
    "train.nll_no_sentence": "在侧边栏输入目标句子，就能看到 NLLLoss 在你自己的句子上的值。",
    "train.ce_example": "**CrossEntropyLoss 还是 NLLLoss：得到同一个数。** 那篇代码讲解的例子有 5 "
                        "个类别，logits 为 {logits}，标签为 {label}。在 logits 上用 "
                        "`nn.CrossEntropyLoss()` 得到 **{ce}**；在它们的 `log_softmax` 上用 "
                        "`nn.NLLLoss()` 得到 **{nll}**（其中 x[y] = {x_y}，NLLLoss 返回 "
                        "−x[y]）；手算 −log(e³ / (e⁰ + e¹ + e² + e³ + e⁴)) = "
                        "{by_hand}。CrossEntropyLoss 就是先 log_softmax 再 "
                        "NLLLoss。本应用的生成器已经做了 `log_softmax`，所以它的损失"
                        "（`LabelSmoothing`，ε = 0 时就是求和的 NLLLoss）读入的是对数概率。"
                        "在对数概率上再用 CrossEntropyLoss 并不算错，只是白做了一步："
                        "log_softmax 作用在对数概率上不会改变它们，所以结果仍是 **{ce_log}**"
                        "（梯度与 NLLLoss 的相差最多 {grad_gap}）。真正的两个错误会得到别的数。"
                        "在概率（`softmax` 之后）上用 CrossEntropyLoss 得到 **{ce_probs}**，"
                        "而且即使预测完全正确也只能得到 {ce_probs_floor}，永远到不了 0。"
                        "在原始 logits 上用 NLLLoss 得到 **{nll_logits}**（就是这个 logit 本身的 "
                        "−x[y]）：损失小于零，训练只要把这一个 logit 越推越大，就能让它"
                        "无止境地下降。",
    "train.tf_seed_text": "训练时（教师强制）解码器读入的不是它自己的输出。下面是一篇代码讲解的例"
                          "子，用本应用的 `Batch` 切分：目标序列“<sos> it is a good day "
                          "<eos>”（这里写作 `<s>` 和 `</s>`）变成解码器输入 `tgt`（去掉最后一个 "
                          "token）和标签 `tgt_y`（去掉第一个 token）：同一个句子错开一位。",
    "train.tf_seed_caption": "共 {n} 个位置，在一次前向传播中同时训练；位置 i 读入第 0 … i "
                             "行的输入，要预测第 i 行的标签。这一个句子的目标掩码形状是 {shape}。",
    "attn.kv_text": "**K 和 V：同一个输入，两个投影。** 有一篇代码讲解说 K 一般就是 V。K 和 V 共有"
                    "的是它们的输入：{source}。本应用用 W^K 和 W^V 从这一个 {rows} × {d_model} 的"
                    "张量重新算出第 {head} 个头的 K 和 V，与上面 K、V 两张图的数值相差不超过 "
                    "{error}。但 W^K 和 W^V 是分别学习的两个矩阵（对这个头，‖W^K − W^V‖ 是 ‖W^K‖ "
                    "的 {w_diff} 倍，‖·‖ 为 Frobenius 范数），所以 K 和 V 是不同的张量：K 的平均绝"
                    "对值为 {mean_k}，V 的为 {mean_v}，K − V 的平均绝对值为 {mean_diff}，两者各元"
                    "素的相关系数为 {corr}。",
    "attn.kv_source_memory": "在交叉注意力中，两者都来自 `memory`，即编码器的输出（`src_attn(x, "
                             "m, m, src_mask)`）",
    "attn.kv_source_x": "在自注意力中，查询、键和值都来自同一个 x，即子层的输入（`self_attn(x, x, "
                        "x, mask)`）",
    "shapes.walk_example": "**(batch, h, seq, d_k) = ({batch}, {h}, {seq}, {d_k}) "
                           "上的缩放点积注意力。** 有一篇代码讲解沿着 `attention(query, key, "
                           "value, mask)` 跟踪这些形状：{batch} 个句子、{h} 个头、{seq} "
                           "个位置、每个头 {d_k} 个数。本应用的 `attention` "
                           "在这些形状的随机张量上、配合填充掩码（真实 token 处为 "
                           "True）计算，得到：",
    "shapes.walk_caption": "乘法只涉及最后两个维度：({seq} × {d_k}) · ({d_k} × {seq}) 得到 {seq} "
                           "× {seq} 的分数，({seq} × {seq}) · ({seq} × {d_k}) 得到 {seq} × {d_k} "
                           "的输出；掩码中大小为 1 的维度会被广播到各个头和各个查询行。换成解码器"
                           "的掩码 {dec_mask}，权重仍是 {dec_weights}，输出仍是 {dec_out}。K "
                           "不必与 Q 形状相同，只需批大小、头数和 d_k 相同：键和值取 {src_len} "
                           "个源位置，即 {cross_k}（交叉注意力）时，权重是 "
                           "{cross_weights}，输出是 {cross_out}，每个查询一行。",
    "shapes.ex.walk_q": "Q：批、头、位置、d_k 四个维度",
    "shapes.ex.walk_k": "K：这里与 Q 形状相同（自注意力）",
    "shapes.ex.walk_v": "V：每个键位置一个 d_k 维向量",
    "shapes.ex.walk_mask": "填充掩码 (batch, 1, 1, seq)：每个头、每个查询都相同",
    "shapes.ex.walk_scores": "Q·Kᵀ / √d_k：每个头上每对查询–键一个分数",
    "shapes.ex.walk_masked_scores": "在掩码为 False 处写入 −1e9 后的分数",
    "shapes.ex.walk_pattern": "对键做 softmax：注意力权重",
    "shapes.ex.walk_out": "权重乘以 V：每个头上每个查询一个 d_k 维向量",
    "class.title": "开课或加入课堂",
    "class.start_help": "开一堂课并分享课堂码或链接：打开它的每个学生都看到你展示的页面、设置和句"
                        "子，并在几秒内跟上你的改动。学生仍使用各自的界面语言。",
    "class.start": "开课",
    "class.code_label": "课堂码",
    "class.join": "加入课堂",
    "class.not_a_code": "这不是课堂码：课堂码由六个字母和数字组成，例如 K7Q2XM。",
    "class.wait": "你所在的网络试过很多错误的课堂码，所以它的课堂码要逐个检查：请 {seconds} 秒后"
                  "再试。",
    "class.not_found_paced": "课堂码 {code} 没有对应正在进行的课堂。你所在的网络在一分钟内试了 {n} "
                             "个或更多错误的课堂码，所以现在它的每个课堂码都要在上一个错误的课堂码 "
                             "{step} 秒之后才检查：正确的课堂码等过这段时间后仍能加入。",
    "class.not_found": "课堂码 {code} 没有对应正在进行的课堂：它可能已经结束。不加入课堂，本应用也"
                       "照常可用。",
    "class.unavailable": "此服务器不支持课堂功能：无法打开课堂存储（CLASS_STORE 设置）。",
    "class.teaching": "你是这堂课的老师。学生打开链接、扫描二维码或输入课堂码即可加入：",
    "class.qr_caption": "加入链接的二维码",
    "class.qr_alt": "加入链接 {link} 的二维码",
    "class.roster": "已连接的学生：{connected} 名（{following} 名跟随，{exploring} 名自行探索）",
    "class.asked": "已提出的问题（{n} 个）",
    "class.asked_right": "{answered} 人作答，{right} 答对",
    "class.asked_open": "{answered} 人作答，尚未公布答案",
    "class.end": "结束课堂",
    "class.ended": "这堂课已经结束。",
    "class.in_class": "你在课堂 {code} 中",
    "class.follow": "跟随老师",
    "class.follow_help": "开启时，你的页面显示老师展示的内容。你自己改动任何设置就进入自行探索；老"
                         "师的改动会等你重新跟随时再显示。",
    "class.elsewhere": "你正在自行探索。课堂正在“{page}”页上。",
    "class.back": "回到课堂",
    "class.leave": "离开课堂",
    "class.banner": "加入课堂：{code}",
    "class.qr_button": "二维码",
    "class.q_students": "学生人数",
    "class.q_chart": "全班的回答",
    "class.q_token": "“{query}”会看向哪里？在{kind}第 {layer} 层的头 {head} 中，它对哪个 token "
                     "的注意力最大？",
    "class.q_numbering": "token 写作“位置:token”，与选项一致；位置、层和头都从 0 开始编号，与热力"
                         "图一致。",
    "class.q_sent": "你的回答已提交。老师公布答案后，热力图会重新显示。",
    "class.q_your_answer": "你的回答",
    "class.q_send": "提交回答",
    "class.q_pick": "选一个 token",
    "class.q_pick_first": "请先选好你的回答，再提交。",
    "class.hidden_for_now": "老师公布答案之前，这一部分会被隐藏。",
    "class.hidden_on_projector": "在你公布答案之前，投影上不显示这一部分。",
    "class.q_closed": "这个问题已关闭：老师已经继续讲下去了。",
    "class.q_hidden": "老师公布答案之前，热力图会被隐藏，以免泄露答案。每人只能回答一次。",
    "class.ask_title": "向全班提问：它会看向哪里？",
    "class.ask_help": "选一个查询 token，并在上面所选的注意力中选一层和一个头：学生猜测它对哪个 "
                      "token 的注意力最大。公布答案前，学生的热力图保持隐藏；在演示模式下，从"
                      "你打开这个面板起，你自己的热力图也会隐藏。",
    "class.q_query": "查询 token",
    "class.ask": "向全班提问",
    "class.reveal": "公布答案",
    "class.q_answered": "目前已收到 {n} 份回答",
    "class.q_truth": "模型对 {token} 的注意力最大：{n} 份回答中有 {right} 份正确（{share}）。",
    "class.q_model_pick": "模型的选择",
    "class.q_nickname": "你的名字（选填）",
    "class.q_nickname_help": "名字可以不填。填了的话，只有老师能看到它：在你的回答旁边、自行探索的"
                             "名单里，以及老师下载的每位学生的回答中；其他同学看不到。"
                             "老师投影屏幕时，除非老师选择显示，"
                             "投影上也不显示名字。",
    "class.q_names_hidden": "回答附带的名字：{n} 个，投影上已隐藏（在课堂面板中打开“在投影上显示名"
                            "字”即可显示）。",
    "class.show_names": "在投影上显示名字",
    "class.show_names_help": "演示模式下，学生的名字（谁选了什么、谁在自行探索）默认隐藏。打开此开"
                             "关即向全班显示。",
    "class.roster_explorers": "自行探索的学生：{names}",
    "class.roster_steps": "学生在本课中的进度：{steps}",
    "class.roster_step": "第 {i} 步：{n} 人",
    "class.roster_no_steps": "还没有学生打开这节课。",
    "class.locked_back": "老师锁定了这一步：视图保持与全班一致。",
    "class.follow_locked_help": "老师锁定了这一步：在老师解锁或进入下一步之前，你会一直跟随全班。",
    "class.q_open_exploring": "老师提了一个问题。回到课堂即可作答。",
    "class.q_you_none": "你没有回答这个问题。",
    "class.q_you_picked": "你的回答：{answer}。",
    "class.q_you_right": "你的回答 {answer} 是对的。",
    "class.q_you_wrong": "你的回答是 {answer}；正确答案是 {truth}。",
    "class.banner_fold": "收起",
    "class.banner_unfold": "展开",
    "class.public_url_bad": "{setting} 设置不是网址（需以 http:// 或 https:// 开头并带主机名）：加"
                            "入链接改用这个浏览器的地址。",
    "class.loopback": "学生打不开这个链接：它是这台电脑自己的地址。请用这台电脑的网络地址打开本应"
                      "用，或把 {setting} 设为学生访问的地址（见 README 的“Use it in class”"
                      "一节）。",
    "class.loopback_short": "学生打不开这个地址：它是这台电脑自己的（见课堂面板）。",
    "class.banner_line": "加入课堂：{link}",
    "class.explore_toast": "你正在自行探索，课堂会继续进行而不带上你。“回到课堂”在页面顶部。",
    "class.end_confirm": "要为所有学生结束这堂课吗？他们的页面将不再跟随你。课上的问题和回答会留在"
                         "这里，可以查看和下载。",
    "class.end_yes": "结束",
    "class.end_no": "取消",
    "class.ended_teacher": "课堂 {code} 已经结束。下面是它的问题和回答，可以查看和下载。",
    "class.ended_none": "这堂课没有提过问题。",
    "class.ended_close": "关闭",
    "class.results_help": "下载每个问题：题目、状态、作答人数、每个选项的人数和正确答案（JSON 还"
                          "按学生编号列出每个回答）。不含名字。",
    "class.results_students": "CSV（每位学生）",
    "class.results_students_help": "每个回答一行：学生（按首次作答的顺序编号，附上其填写的名字，"
                                   "如有）、问题、回答、是否正确以及作答时间（UTC）。文件含有名字，"
                                   "请妥善保管。",
    "class.q_names": "谁选了什么：{names}",
    "class.q_next": "第 {step} 步：解码器接下来会写出哪个 token？",
    "class.q_next_source": "它要翻译的源序列：",
    "class.q_next_prefix": "解码器从 `<s>` 开始到目前为止写出的内容：",
    "class.q_next_sent": "你的回答已提交。老师公布答案后，解码过程会重新显示。",
    "class.q_next_hidden": "老师公布答案之前，解码过程会被隐藏，以免泄露答案。每人只能回答一次。",
    "class.q_next_truth": "解码器写出的是 {token}：{n} 份回答中有 {right} 份正确（{share}）。",
    "class.ask_next_title": "向全班提问：下一个 token 是什么？",
    "class.ask_next_help": "学生会看到源序列和解码器在这一步读入的 {k} 个 token，并猜测它写出的 to"
                           "ken（即贪心解码选出的 token）。公布答案前，学生的解码过程保持隐藏。",
    "class.ask_break_title": "向全班提问：哪种破坏对“{task}”任务损害最大？",
    "class.ask_break_help": "学生从你提供的破坏中选一个。提问的同时，服务器依次训练正确的模型和每"
                            "种破坏各一个模型：每种破坏单独施加，与**训练两个模型**的做法相同（相"
                            "同的初始权重和批，每个 {steps} 步；除标签平滑这一破坏用 ε = {eps} 外"
                            "，都不用标签平滑）。答案是在留出序列上解码最差的那种破坏：贪心解码的"
                            "整序列准确率最低；若并列，取教师强制的 token 准确率较低者；再并列，取"
                            "损失较高者。所有模型测量完毕后才能公布答案。",
    "class.break_offered": "提供的破坏选项",
    "class.break_two": "请至少提供两种破坏。",
    "class.q_break": "哪种破坏对“{task}”任务损害最大？",
    "class.q_break_how": "老师的服务器会训练正确的模型，并为每种破坏各训练一个模型，每个 "
                         "{steps} 步。答案是解码最差的那种破坏（以留出序列上贪心解码的整序列"
                         "准确率衡量）。",
    "class.q_break_sent": "你的回答已提交。所有模型训练并测量完毕后，老师会公布哪种破坏损害最大。",
    "class.q_break_hidden": "每人只能回答一次。全班的回答和测得的答案会在公布时显示。",
    "class.q_break_truth": "损害最大的破坏是：{token}。{n} 份回答中有 {right} 份正确（{share}）。",
    "class.reveal_waits": "所有模型训练并测量完毕后即可公布答案。",
    "class.race_missing": "这个问题的模型不在这个标签页里（标签页被重新打开过，或训练未能开始），"
                          "因此这里没有测出哪种破坏损害最大：公布答案时只显示全班的回答。再提问一"
                          "次即可测量。",
    "class.race_stopped": "训练在所有模型训练完之前停止了，因此没有测出哪种破坏损害最大：公布答案"
                          "时只显示全班的回答。再提问一次即可测量。",
    "class.race_hidden": "在你公布答案之前，测量结果在投影上保持隐藏。",
    "class.race_model": "模型",
    "class.race_caption": "每个模型从相同的初始权重出发训练 {steps} 步；准确率都在同样的 {n} 个"
                          "{sequences}上测得。",
    "class.race_progress": "第 {k} 个模型（共 {n} 个，{name}）：第 {step} / {steps} 步",
    "class.q_hurt_most": "损害最大",
    "class.race_weak": "训练 {steps} 步后，正确的模型本身在留出序列上也只解码对 {greedy}：步数"
                       "太少，各种破坏之间差别不大。想让比较说明问题，请用更多步数再提问一次"
                       "（第 7 节的滑块，默认 {default} 步）。",
    "exp.short.decoder_mask.none": "去掉后续位置掩码",
    "exp.short.decoder_mask.inverted": "后续位置掩码取反",
    "exp.short.positional_encoding": "去掉位置编码",
    "exp.short.scale_scores": "去掉 √d_k 缩放",
    "exp.short.residual": "去掉残差连接",
    "exp.short.smoothing": "标签平滑",
    "class.break_wait": "课堂上的问题还没有公布答案：老师公布后，本节会重新显示（在这里训练一种破"
                        "坏会泄露答案）。",
    "class.break_one_mask": "“去掉后续位置掩码”和“后续位置掩码取反”都一个序列也解码不对：两者只提"
                            "供前一个。",
    "class.asked_no_truth": "{answered} 人作答，公布时没有测得的答案",
    "class.q_no_truth": "公布时没有测得的答案：并非所有模型都训练完毕。共 {n} 人作答。",
    "class.q_open_attention": "老师提了一个问题：请在本页热力图上方作答。",
    "class.q_open_next": "老师提了一个问题：请在本页第 3 节作答。",
    "class.q_open_break": "老师提了一个问题：请在本页第 7 节作答。",
    "class.close_answers": "停止作答",
    "class.close_answers_help": "不再接受新的回答，已提交的回答会保留并计入。准备好后再公布答案。",
    "class.answers_closed": "已停止作答。",
    "class.countdown": "还有 {s} 秒截止作答",
    "class.countdown_done": "时间到：正在截止作答。",
    "class.countdown_start": "或在以下时间后截止",
    "class.countdown_seconds": "{n} 秒",
    "class.countdown_help": "每个学生的页面都会倒计时；时间到时截止作答（已收到的答案保留），"
                            "准备好后再公布答案。请保持此页面打开：由它来截止作答。",
    "class.q_closed_wait": "老师在你提交之前停止了作答。正确答案会在公布时揭晓。",
    "class.q_lesson_sent": "你的答案已提交。老师会向全班公布正确答案。",
    "class.q_lesson_hidden": "每人只能回答一次。老师公布后，你会看到正确答案和全班的回答。",
    "class.q_lesson_truth": "正确答案：{token}。{n} 个回答中有 {right} 个正确（{share}）。",
    "class.q_right_one": "正确答案",
    "class.q_poll_revealed": "这是投票：没有对错之分。共 {n} 人作答。",
    "class.q_open_lesson": "老师提出了这一步的问题：请在下方的课程框中作答。",
    # ---- 课程（explorer/sections/lesson.py）----
    "lesson.box": "课程",
    "lesson.box_help": "课程是一条穿过本应用的路线：每一步展示一个视图、一段说明，"
                       "有时还有一道自测题。可以打开现成的课程，也可以从眼前的视图开始做自己的课程。",
    "lesson.shipped": "应用自带的课程",
    "lesson.open": "打开这门课程",
    "lesson.upload": "打开课程文件",
    "lesson.upload_help": "用本应用保存的课程（.json，不超过 {kb} KB）。打开前会先检查，"
                          "只留在你的浏览器标签页里。",
    "lesson.start_here": "从这个视图开始制作课程",
    "lesson.start_here_help": "你正在看的内容成为第 1 步。之后切到别的视图，再把它添加为下一步。",
    "lesson.not_opened": "无法打开课程：{reason}",
    "lesson.untitled": "一门课程",
    "lesson.where": "**{title}** · 第 {i} 步，共 {n} 步",
    "lesson.away": "你已离开这一步的视图（随意探索没有问题）。这一步在“{page}”页。",
    "lesson.show_step": "重新显示这一步的视图",
    "lesson.back": "上一步",
    "lesson.next": "下一步",
    "lesson.close": "关闭课程",
    "lesson.last_step": "这是最后一步。",
    "lesson.question": "自测：",
    "lesson.your_answer": "你的答案",
    "lesson.check": "检查",
    "lesson.again": "再试一次",
    "lesson.right": "答对了：{given}。",
    "lesson.wrong": "不对：你选了 {given}，答案是 {truth}。",
    "lesson.poll_answer": "你选了 {given}。这道题没有唯一的正确答案。",
    "lesson.q_needs_step": "这一步的题目针对它自己的视图：请先重新显示该视图再作答。",
    "lesson.q_does_not_fit": "这一步的题目问到的 token、层或头，当前显示的模型和句子里没有。",
    "lesson.q_attention": "在{kind}第 {layer} 层的头 {head} 中，查询“{query}”"
                          "把最大的权重给了哪个键？",
    "lesson.attention_truth": "当前模型把这个查询 {share} 的权重给了 {key}。",
    "lesson.attention_second": "其次是 {key}，占 {share}。",
    "a11y.row_strongest": "查询 {query} 最关注键 {key}（{share}）。",
    "a11y.row_second": "其次是键 {key}（{share}）。",
    "a11y.col_layer": "层",
    "a11y.col_head": "头",
    "a11y.col_query": "查询",
    "a11y.col_key": "最关注的键",
    "a11y.col_weight": "权重",
    "a11y.mean_heads": "各头平均",
    "a11y.grid_as_text": "用文字看这张网格：每个查询最关注的键",
    "a11y.weights_as_text": "用文字看这些权重",
    "a11y.answers_given": "收到的回答（回答：人数）：{given}",
    "a11y.mask_row": "{row}：可以关注位置 {allowed}。",
    "a11y.mask_blocked": "被屏蔽：{blocked}。",
    "a11y.none": "无",
    "a11y.mask_as_text": "用文字看这个掩码",
    "a11y.pe_curve": "维度 {d}（{kind}）：每 {period} 个位置完成一个完整周期；位置 0 处为 {first}，"
                     "位置 {n} 处为 {last}。",
    "a11y.curves_as_text": "用文字看这些曲线",
    "a11y.chart_as_text": "用文字看这张图",
    "a11y.axes": "横轴：{across}；纵轴：{down}。",
    "a11y.frames": "一段 {n} 帧的动画；下面的数字取自最先画出的那一帧。",
    "a11y.panel": "第 {i} 个子图（共 {n} 个）：",
    "a11y.heat_row": "行 {row}：最大 {high}，在 {high_at}；最小 {low}，在 {low_at}。",
    "a11y.heat_row_empty": "行 {row}：没有数值。",
    "a11y.heat_summary": "{rows} 行 × {cols} 列：最大 {high}，在行 {high_row}、列 {high_col}；"
                         "最小 {low}，在行 {low_row}、列 {low_col}；平均 {mean}。",
    "a11y.heat_empty": "{rows} 行 × {cols} 列，没有画出数值。",
    "a11y.heat_blank": "{n} 个格子没有数值（画成空白）。",
    "a11y.series": "数值",
    "a11y.points": "{name}：{points}。",
    "a11y.curve": "{name}：{n} 个点，从 {first_at} 处的 {first} 到 {last_at} 处的 {last}；"
                  "最大 {high}，在 {high_at}；最小 {low}，在 {low_at}。",
    "a11y.bars": "{name}：{bars}。",
    "a11y.labels": "图中的标注：",
    "a11y.more": "还有 {n} 条。",
    "access.code_region": "代码（可横向滚动：方向键）",
    "access.formula_region": "公式（可横向滚动：方向键）",
    "lesson.q_next": "解码器已经读入“{read}”（目标的前 {n} 个位置，与训练时相同）。"
                     "它接下来给哪个 token 的概率最高？",
    "lesson.next_truth": "当前模型给 {token} 的概率最高：{share}。",
    "lesson.editing": "正在编辑这门课程：当前是第 {i} 步，共 {n} 步。",
    "lesson.title_in": "标题（{lang}）",
    "lesson.add_here": "把这个视图添加为一步",
    "lesson.add_here_help": "你正在看的内容成为当前步骤之后的新一步（最多 {n} 步）。",
    "lesson.set_here": "让这一步使用当前视图",
    "lesson.set_here_help": "当前步骤改用你正在看的视图。",
    "lesson.earlier": "前移",
    "lesson.later": "后移",
    "lesson.upload_limit": "JSON，不超过 {kb} KB",
    "lesson.remove_step": "删除这一步",
    "lesson.note_in": "这一步的说明（{lang}）",
    "lesson.q_kind": "这一步的题目",
    "lesson.q_kind_help": "查询最关注哪个键，或解码器下一个写出哪个 token：答案在这一步的视图上"
                          "从当前模型读出（在注意力页上，按其类型、层和头）。单选题：你给出的选项，其中一个正确。投票：你给出的选项，"
                          "没有正确答案。",
    "lesson.kind_none": "不出题",
    "lesson.kind_attention": "查询看向哪里？（答案来自模型）",
    "lesson.kind_next": "下一个 token 是什么？（答案来自模型）",
    "lesson.kind_choice": "单选题，有一个正确答案",
    "lesson.kind_poll": "投票，没有正确答案",
    "lesson.q_query": "位置（查询看向哪里？下一个 token 是什么？）",
    "lesson.q_query_help": "从 0 开始数。查询看向哪里：查询 token 的位置。下一个 token 是什么："
                           "解码器读到的最后一个目标位置（0 是起始符 <s>）。",
    "lesson.q_prompt": "题目（{lang}）",
    "lesson.q_options": "选项（{lang}），每行一个",
    "lesson.q_options_help": "2 到 6 个选项，两种语言的顺序相同。",
    "lesson.q_answer": "正确选项的序号（单选题）",
    "lesson.q_answer_help": "按选项列出的顺序，从 1 开始数。",
    "lesson.q_explain": "作答后显示的解释（{lang}）",
    "lesson.save_step": "保存这一步的说明和题目",
    "lesson.saved": "已保存这一步。",
    "lesson.download": "下载课程（.json）",
    "lesson.link_help": "从第 1 步打开这门课程的链接（链接里包含整门课程）：",
    "lesson.in_top": "课程中",
    "lesson.in_step": "第 {step} 步中",
    "lesson.what_title": "标题",
    "lesson.what_note": "说明",
    "lesson.what_prompt": "题目",
    "lesson.what_explain": "解释",
    "lesson.what_option": "某个选项",
    "lesson.err_link": "这个链接里没有本应用能读取的课程。",
    "lesson.err_too_big": "它超过了 {kb} KB。",
    "lesson.err_json": "它不是本应用能读取的课程文件（JSON）。",
    "lesson.err_top": "它不是课程文件：文件必须是一个 JSON 对象。",
    "lesson.err_format": "它不是本应用的课程文件。",
    "lesson.err_newer": "它由更新版本的本应用保存（格式 {version}）。",
    "lesson.err_no_steps": "它没有任何步骤。",
    "lesson.err_steps": "它超过了 {n} 步。",
    "lesson.err_field": "{where}，字段“{field}”不是课程应有的字段（可以有：{fields}）。",
    "lesson.err_text": "{where}，{what}必须是英文和/或中文的文本。",
    "lesson.err_long": "{where}，{what}超过了 {n} 个字符。",
    "lesson.err_step": "{where}，这一步不是包含页面和视图的对象。",
    "lesson.err_page": "{where}，页面必须是以下之一：{pages}。",
    "lesson.err_view": "{where}，视图必须是链接参数，每个值都是文本。",
    "lesson.err_view_key": "{where}，视图中的“{name}”不是本应用的设置或选项。",
    "lesson.err_view_value": "{where}：{notice}",
    "lesson.err_question": "{where}，题目不是一个对象。",
    "lesson.err_kind": "{where}，题目类型必须是以下之一：{kinds}。",
    "lesson.err_query": "{where}，查询位置必须是 0 到 {n} 之间的整数。",
    "lesson.err_options": "{where}，题目需要 {low} 到 {high} 个选项，且都不能为空。",
    "lesson.err_answer": "{where}，正确答案必须是这 {n} 个选项之一的序号。",
    "lesson.err_poll": "{where}，投票没有正确答案。",
    "lesson.err_prompt": "{where}，题目没有文字。",
    "lesson.class_too_long": "这节课太长，无法随课堂同步：学生会跟随你的视图，但看不到说明和问题。"
                             "请改为分享课程文件，或缩短说明。",
    "lesson.class_next_up": "下一步：第 {i} 步，在“{page}”页。",
    "lesson.class_question": "课堂提问：",
    "lesson.class_ask": "向全班提问",
    "lesson.class_paced": "老师会带着全班一步一步地学习这节课。",
    "lesson.class_self_paced": "按自己的节奏学习这节课：“上一步”和“下一步”由你自己"
                               "掌握。老师能看到你在哪一步。",
    "lesson.pace": "学生按自己的节奏学习",
    "lesson.pace_help": "打开：每个学生用自己的“上一步”“下一步”学习，并自行检查每一步的"
                        "问题；课堂面板显示每一步有多少名学生。关闭：你的“上一步”“下一步”"
                        "带动全班，每一步的问题由你向全班提出。",
    "lesson.check_to_teacher": "老师能看到你对每一步问题的最新答案，以及你填写的昵称。",
    "lesson.check_not_kept": "已在这里检查，但班级没有保存这个答案（课堂可能已经结束）。",
    "lesson.checks": "自我检查（已作答的学生：{n}）",
    "lesson.checks_none": "还没有学生回答这节课的问题。",
    "lesson.checks_step": "{answered} 人作答，{right} 人答对（{share}）",
    "lesson.checks_step_poll": "{answered} 人作答（投票）",
    "lesson.checks_step_none": "尚无回答",
    "lesson.step_n": "第 {i} 步：",
    "lesson.checks_csv_help": "每个学生对每一步问题的最新答案，每行一条：学生（编号）、"
                              "填写的昵称、步骤、答案、是否正确、尝试次数、时间（UTC）。"
                              "文件包含学生的昵称。",
    "lesson.checks_json_help": "同样的答案，JSON 格式，只有学生编号（不含昵称）。",
    "lesson.pace_self_note": "学生自定进度：你的“上一步”“下一步”只移动你自己。每个"
                             "学生自行检查这一步的问题。",
    "lesson.lock": "锁定这一步，不允许自行探索",
    "lesson.lock_help": "打开：这一步中每个学生的视图都与全班一致（学生自己的改动会立即恢复，不能"
                        "停止跟随，正在自行探索的学生也会回到课堂）。进入其他步骤或关闭此开关即"
                        "解除锁定。",
    "lesson.class_locked": "老师锁定了这一步：视图保持与全班一致。",
    "lesson.class_q_later": "这一步有一个问题：等老师提问时再作答。",
    "lesson.hide_notes": "在投影上隐藏说明",
    "lesson.hide_notes_help": "学生的屏幕上仍显示这一步的说明；投影的屏幕只提示说明已隐藏。",
    "lesson.note_hidden": "这一步的说明在投影上已隐藏；学生可以在自己的屏幕上阅读。",
}
