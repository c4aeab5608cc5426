"""English interface text. Keys are grouped by page; `{name}` fields are filled by t()."""

TEXT: dict[str, str] = {
    # ---- app and sidebar ----
    "app.title": "Transformer Explorer",
    "sidebar.language": "Language / 语言",
    "sidebar.presenter": "Presenter mode",
    "sidebar.presenter_help": "Larger text and charts, readable on a projector from the back "
                              "of a room.",

    # ---- checkpoint import panel (explorer/app/import_panel.py) ----
    "sidebar.params_imported": "Parameters (your checkpoint)",
    "ckpt.title": "Explore your own checkpoint",
    "ckpt.wrap": "Put {start} … {end} around the sentence",
    "ckpt.wrap_note": "This model's vocabulary has {start} and {end}. The Annotated "
                      "Transformer's translation data puts them around every source sentence, "
                      "and a model trained on it reads a bare sentence as something it never "
                      "saw. This app gives the model your sentence as it is; switch the option "
                      "below on to add them. Typing them yourself does not work: the tokenizer "
                      "splits “{start}” at its angle brackets into separate tokens.",
    "ckpt.explain": "Upload a state_dict saved with The Annotated Transformer's make_model "
                    "(torch.save(model.state_dict(), ...)) or a checkpoint exported by this "
                    "app's Train page; at most {mb} MB. It is loaded safely (torch.load with "
                    "weights_only=True) and belongs to your session only. Every page then "
                    "shows your model instead of the sidebar's.",
    "ckpt.file": "Checkpoint file (.pt)",
    "ckpt.h": "h (heads): leave empty for this app's exports",
    "ckpt.h_placeholder": "empty: read h from the file",
    "ckpt.h_help": "The number of heads cannot be read from the weights' shapes (W^Q holds every "
                   "head in one d_model x d_model matrix). A checkpoint exported by this app's "
                   "Train page records h: leave the field empty. For a state_dict from The "
                   "Annotated Transformer, type its h (its make_model uses 8).",
    "ckpt.vocab": "Vocabulary (optional): a .txt file, one token per line, in id order",
    "ckpt.vocab_help": "Without it, tokens are called tok0, tok1, ... and your words are "
                       "unknown to the model.",
    "ckpt.load": "Load checkpoint",
    "ckpt.loading": "Loading the checkpoint…",
    "ckpt.using": "Exploring your checkpoint: N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, "
                  "vocabularies {src} / {tgt}.",
    "ckpt.forget": "Back to the sidebar's model",
    "ckpt.vocab_too_big": "The vocabulary file is too large (at most 5 MB).",
    "ckpt.vocab_not_utf8": "The vocabulary file is not UTF-8 text: save it as plain text, one "
                           "token per line.",
    # show_problems (explorer/app/context.py), for the patch proposed to its author
    "problems.text": "**Your text could not be used.** {reason}",
    "problems.longer_than_model": "It needs {n} positions, but your checkpoint's "
                                  "positional-encoding table covers {max_len} and is not the "
                                  "sinusoid formula (so it cannot be extended). Shorten the "
                                  "text to at most {max_len} tokens (the target counts <s>).",
    "problems.arch": "**No model can be built with these settings.** {reason}",
    "problems.source_sentence": "Source sentence: {reason}",
    "problems.target_sentence": "Target sentence: {reason}",
    # Errors raised in transformer/ (TokenizeError, ConfigError): the key is the error's code,
    # the text says what its English message says (explorer/app/context.py learner_message).
    "tokenize.not_text": "Expected text (a string) but got {type}. Type some words instead.",
    "tokenize.mode": "Unknown tokenizer mode {mode}. Choose {valid}.",
    "tokenize.max_tokens": "The token limit must be a whole number of at least 1, not {value}.",
    "tokenize.too_many_chars": "The text has {n} characters; the limit is {limit} so that every "
                               "picture stays readable and the server stays fast. Shorten it.",
    "tokenize.empty": "The text is empty (after removing spaces and invisible characters). "
                      "Type at least one word.",
    "tokenize.too_many_tokens": "The text has {n} tokens; the limit is {limit} so that every "
                                "picture stays readable and the server stays fast. Shorten it.",
    "config.whole": "{name} must be a whole number, got {value}.",
    "config.at_least": "{name} must be at least {low}, got {value}.",
    "config.choice": "{name} must be one of {allowed}, got {value}.",
    "config.heads": "d_model ({d_model}) must be divisible by h ({h}): each of the h heads gets "
                    "d_k = d_model / h dimensions. Try h in [{heads}].",
    "config.heads_widths": "d_model ({d_model}) must be divisible by h ({h}): each of the h "
                           "heads gets d_k = d_model / h dimensions. Try h in [{heads}], or "
                           "d_model in [{widths}].",
    "config.even": "d_model must be even (got {d_model}): the sinusoidal positional encoding "
                   "pairs a sine and a cosine for each frequency. Try {lower} or {upper}.",
    "config.dropout_number": "dropout must be a number in [0, 1), got {value}.",
    "config.dropout_range": "dropout must be in [0, 1) (the probability of zeroing a value), "
                            "got {value}.",
    "config.true_false": "{name} must be True or False, got {value}.",
    "config.tie_all": "tie_weights='all' shares one embedding table between source and target, "
                      "so both vocabularies must be the same size (got {src} and {tgt}). Use "
                      "tie_weights='decoder' or one shared vocabulary.",
    # The glossary (explorer/text/glossary.py), at the bottom of the sidebar
    "glossary.title": "Glossary (English – 中文)",
    "glossary.caption": "The words this app uses for each idea, in English and in Chinese.",
    "glossary.col_en": "English",
    "glossary.col_zh": "中文",
    "glossary.col_note": "Note",
    "glossary.col_avoid": "Not used in Chinese",

    # ---- navigation (app.py) ----
    "nav.model": "Model",
    "nav.embeddings": "Embeddings & positions",
    "nav.masks": "Masks",
    "nav.attention": "Attention",
    "nav.shapes": "Shapes",
    "nav.train": "Train & decode",

    # ---- Model page (pages/model.py) ----
    "model.title": "Model",
    "model.intro": "The Transformer is an **encoder-decoder**. The encoder reads the whole source "
                   "sentence at once and turns it into `memory`: one vector of width d_model per "
                   "source token. The decoder then produces the target one token at a time, "
                   "attending to the tokens it has produced so far (masked self-attention) and to "
                   "`memory` (cross-attention); a final `generator` turns each of its vectors "
                   "into log-probabilities for the next token. In the code that is one line, "
                   "`EncoderDecoder.forward = decode(encode(src, src_mask), src_mask, tgt, "
                   "tgt_mask)`, and everything on this page is read from the model chosen under "
                   "\"Model to look at\" in the sidebar: {model}.",
    "model.arch_header": "The architecture, from your settings",
    "model.lengths_known": "src_len = {src_len} source tokens and tgt_len = {tgt_len} decoder "
                           "inputs (`<s>` + the target) come from your sentence",
    "model.lengths_unknown": "the sentence lengths are shown as symbols until your text can be "
                             "used",
    "model.norm_pre": "**Pre-norm** (The Annotated Transformer): each sublayer computes `x + "
                      "dropout(sublayer(LayerNorm(x)))`, so the residual path skips the LayerNorm "
                      "and each stack needs one final LayerNorm.",
    "model.norm_post": "**Post-norm** (the paper's \"Add & Norm\"): each sublayer computes "
                       "`LayerNorm(x + dropout(sublayer(x)))`, so every layer already ends "
                       "normalised and the stacks have no final LayerNorm.",
    "model.arch_caption": "Data flows upwards. Shapes are (batch, …) with batch = 1; "
                          "{lengths}. Every ⊕ is a residual addition: the arrow around each "
                          "sublayer carries its input past it. {norm_text} Purple: the mask "
                          "each attention receives (True = may attend). Dropout is not drawn. "
                          "The paper (§5.4) applies it to every sublayer's output before the "
                          "residual addition and to the embedding + positional encoding sum; "
                          "this model, like The Annotated Transformer, also drops attention "
                          "weights and the feed-forward network's hidden layer.",
    "model.ln_expander": "Which LayerNorm? Two formulas, computed on your sentence",
    "model.ln_text": "Both formulas subtract the vector's mean, divide by a measure of its"
                     " spread, then scale and shift by learned vectors (`a_2` and `b_2` here,"
                     " `weight` and `bias` in `nn.LayerNorm`). They differ in the spread:\n"
                     "\n- **The Annotated Transformer** (this app's `LayerNorm`, \"std + 1e-6\""
                     "): (x − mean) / (std + 1e-6), with the *unbiased* std (the sum of squares"
                     " divided by d_model − 1) and eps added to the std, outside the square"
                     " root.\n- **PyTorch's `nn.LayerNorm`** (`F.layer_norm`): (x − mean) /"
                     " √(var + 1e-5), with the *biased* variance (divided by d_model) and eps"
                     " inside the square root.\n\nOn the vector the first encoder layer receives"
                     " for the first source token (d_model = {d}): mean {mean}, unbiased std"
                     " {su}, biased std {sb}. The biased std is smaller by the factor √((d_model"
                     " − 1)/d_model) = {ratio}, so `nn.LayerNorm` gives outputs about {pct}"
                     " larger; on this vector the largest difference is {diff}. Neither is"
                     " wrong, since the learned scale can absorb the factor, but weights trained"
                     " with one formula give slightly different numbers with the other. This"
                     " model uses **{current}** (sidebar, Teaching options).",
    "model.ln_annotated": "std + 1e-6 (The Annotated Transformer)",
    "model.ln_standard": "nn.LayerNorm (PyTorch)",
    "model.alt_expander": "Another layout you may meet: bias-free projections (as in one of the "
                          "code walk-throughs)",
    "model.alt_intro": "Some walk-throughs build the same architecture with separate, bias-free "
                       "`W_q`, `W_k`, `W_v`, `W_o` layers, PyTorch's LayerNorm formula and a "
                       "bias-free output layer that returns logits. What differs from this model, "
                       "at your sizes (second column: parameters the other layout does not have):",
    "model.alt_col_part": "part",
    "model.alt_col_here": "this model (The Annotated Transformer)",
    "model.alt_col_there": "the bias-free layout",
    "model.alt_col_params": "parameters it lacks",
    "model.alt_part_attn": "attention projections",
    "model.alt_here_attn": "linears: 4 × Linear(d_model, d_model) with bias",
    "model.alt_there_attn": "W_q, W_k, W_v, W_o: Linear(d_model, d_model, bias=False)",
    "model.alt_part_ln": "LayerNorm",
    "model.alt_there_ln": "biased variance, eps = 1e-5 inside the square root (nn.LayerNorm's "
                          "formula)",
    "model.alt_part_gen": "output layer",
    "model.alt_here_gen": "Linear with bias, then log_softmax",
    "model.alt_there_gen": "Linear without bias, returns logits (the loss applies the softmax)",
    "model.alt_part_names": "names",
    "model.alt_here_names": "a_2, b_2; sublayer[0], sublayer[1], sublayer[2]",
    "model.alt_there_names": "gamma, beta; sublayer_attn, sublayer_ffn, …",
    "model.alt_why": "**Why either works.** A key bias adds q·b_k to every score in a query's row,"
                     " the same amount for every key, and the softmax ignores a constant added to "
                     "a whole row. On your sentence, dropping encoder layer 0's key bias changes "
                     "its attention weights by at most {key} (rounding), while dropping the query "
                     "bias changes them by up to {query}. A value bias moves every head's output "
                     "by one fixed vector (the weights sum to 1), which the output projection's "
                     "bias can absorb. So the bias-free layout gives up little and has {fewer} "
                     "fewer parameters here. The paper writes the projections as matrices W "
                     "without bias terms but does not say whether its code used biases; The "
                     "Annotated Transformer's `nn.Linear` layers have them.",
    "model.need_text": "The module tree, parameter counts and live shapes appear once the source "
                       "and target text can be used.",
    "model.tree_header": "The module tree",
    "model.tree_intro": "What `print(model)` shows: {N} clones of `EncoderLayer` in "
                        "`encoder.layers`, {N} of `DecoderLayer` in `decoder.layers`, the two "
                        "embedding `Sequential`s (`Embeddings` then `PositionalEncoding`) and the "
                        "`Generator`.",
    "model.tree_expander": "print(model): {lines} lines",
    "model.tree_caption": "The hook points are hidden: they are identity modules (`HookPoint`) "
                          "this app uses to capture the tensors shown on the other pages; they "
                          "have no parameters and change nothing.",
    "model.params_header": "Parameters",
    "model.metric_total": "Parameters (distinct tensors)",
    "model.metric_total_help": "Every parameter tensor counted once, even when two modules "
                               "share it.",
    "model.metric_enc": "Encoder stack",
    "model.metric_dec": "Decoder stack",
    "model.metric_embed": "Embeddings + generator (vocab {vocab})",
    "model.col_component": "component",
    "model.col_parameters": "parameters",
    "model.col_share": "share",
    "model.tie_pair": "`{b}` is the same tensor as `{a}`",
    "model.tie_sep": "; ",
    "model.ties": "Weight tying: {pairs} (tie_weights = {tie}). Each shared table is counted "
                  "once, under its first name.",
    "model.paper_note": "The two stacks hold {stacks} parameters ({share}). The embedding tables "
                        "and the generator grow with the vocabulary, {vocab_text}. With the "
                        "paper's shared vocabulary of about {paper_vocab} tokens and one table "
                        "shared by both embeddings and the output layer (section 3.4), this "
                        "architecture would have about {paper_total}M parameters.",
    "model.vocab_sentences": "which here is only the {vocab} tokens of your sentences (4 special "
                             "tokens included)",
    "model.vocab_checkpoint": "which in your checkpoint has {src} source and {tgt} target "
                              "tokens",
    "model.paper_base_note": " This is the paper's base model: its stacks alone are {stacks}M, "
                             "the {paper_vocab} × {d_model} shared table adds {table}M, and the "
                             "{paper_total}M total is close to the {paper_params} the paper "
                             "reports in Table 3.",
    "model.every_param": "Every parameter tensor",
    "model.col_name": "name",
    "model.col_shape": "shape",
    "model.col_count": "count",
    "model.every_param_caption": "{n} distinct tensors. `named_parameters()` lists a tied "
                                 "tensor only once, under the first name it was registered "
                                 "with.",
    "sized.expander": "At sizes of your own: source and target vocabularies, and d_v",
    "sized.intro": "A walk-through builds its model for 500 source tokens and 1000 target "
                   "tokens, at the paper's base sizes, and makes d_v, the width of each head's "
                   "values, a setting of its own (the paper takes d_v = d_k = d_model / h = "
                   "64). Type any sizes: the model is built from the same code on PyTorch's "
                   "meta device, where every parameter has its shape and none takes memory.",
    "sized.src_vocab": "source vocabulary",
    "sized.tgt_vocab": "target vocabulary",
    "sized.N": "N (layers per stack)",
    "sized.d_model": "d_model",
    "sized.h": "h (heads)",
    "sized.d_ff": "d_ff",
    "sized.d_v": "d_v (value width per head)",
    "sized.batch": "batch (sequences)",
    "sized.length": "tokens per sequence",
    "sized.col_what": "what",
    "sized.col_step": "encoder layer 0's self-attention, step by step",
    "sized.w.src_embed": "source embedding: a row per source token",
    "sized.w.tgt_embed": "target embedding: a row per target token",
    "sized.w.w_q": "W^Q: d_model → h·d_k",
    "sized.w.w_k": "W^K: d_model → h·d_k",
    "sized.w.w_v": "W^V: d_model → h·d_v",
    "sized.w.w_o": "W^O: h·d_v → d_model",
    "sized.w.generator": "generator: a row per target token",
    "sized.step.hook_q": "Q, split into h heads of d_k",
    "sized.step.hook_k": "K, split into h heads of d_k",
    "sized.step.hook_v": "V, split into h heads of d_v",
    "sized.step.hook_scores": "scores Q·Kᵀ / √d_k: a query position by a key position",
    "sized.step.hook_z": "weights · V, per head",
    "sized.step.hook_concat": "the heads side by side: h·d_v columns",
    "sized.step.hook_out": "W^O: back to d_model",
    "sized.result": "The logits are **{logits}**: a score for each of the {tgt_vocab} target "
                    "tokens at every position. The generator's size comes from the target "
                    "vocabulary; the source vocabulary sizes only the encoder's table. With "
                    "d_k = {d_k} and d_v = {d_v}, queries and keys still meet in d_k "
                    "dimensions; d_v widens only what each head passes on, {h} × {d_v} = "
                    "{hd_v} columns, which W^O maps back to d_model = {d_model}. {params} "
                    "parameters in all. An `nn.Linear` stores its weight as (out_features, "
                    "in_features).",
    "model.code_header": "Read the code",
    "model.code_intro": "Pick a component of `transformer/model.py`: its source on the left, and "
                        "on the right the tensors it produced when your sentence went through "
                        "the model.",
    "model.component_label": "Component",
    "model.live_shapes": "Live shapes",
    "model.make_model_caption": "`make_model` builds the modules; these are the values it was "
                                "called with (`TransformerConfig`). The untrained model on "
                                "these pages is not `make_model`'s own draw: its encoder and "
                                "decoder stacks come from `seed` with a placeholder "
                                "vocabulary, and each token's embedding and output row are "
                                "seeded by the token's text, so a word keeps its vector in "
                                "every sentence. `explorer.core.runs.page_model(cfg, seed, "
                                "vocab)` rebuilds it in a script.",
    "model.module_list": "`clones` holds the layers in an `nn.ModuleList`, which is an "
                         "`nn.Module`: `issubclass(nn.ModuleList, nn.Module)` is {truth} (a "
                         "walk-through says it is not). That is why the layers' weights belong "
                         "to the model: this stack has {registered} parameters; with its {n} "
                         "layers in a plain Python list, `parameters()` and `state_dict()` "
                         "would find {in_a_list}.",
    "model.col_argument": "argument",
    "model.col_value": "value",
    "model.shapes_caption": "batch = 1, src_len = {src_len}, tgt_len = {tgt_len}, d_model = "
                            "{d_model}, h = {h}, d_k = {d_k}, d_ff = {d_ff}. Tensors are named "
                            "hook · module path (their key in `run_with_cache`'s cache is "
                            "`path.hook`). Where a component repeats in every layer, layer 0 is "
                            "shown; the Shapes page lists every tensor.",
    "model.col_tensor": "tensor",
    "model.col_dims": "dims",
    "model.col_operation": "operation",

    # ---- Embeddings & positions page (pages/embeddings.py) ----
    "emb.title": "Embeddings & positional encoding",
    "emb.intro": "Attention by itself treats its input as a *set*: shuffle the words and every "
                 "token gets the same result, just shuffled. The Transformer therefore adds a "
                 "**position signal** to each token's embedding. It is not learned: dimension 2i "
                 "holds a sine and dimension 2i+1 a cosine of the position, with wavelengths "
                 "growing geometrically from 2π to 10000·2π.",
    "emb.curves_header": "The curves",
    "emb.d_model_label": "d_model for these plots",
    "emb.positions_label": "positions",
    "emb.odd_d_model": "d_model must be even (sine and cosine come in pairs): {odd} was "
                       "rounded up to {d_model}.",
    "emb.dims_label": "dimensions",
    "emb.curves_title": "PE for d_model = {d_model}",
    "emb.curves_caption": "With the defaults (d_model = 20, dimensions 4–7, 100 positions) this "
                          "is the Annotated Transformer's figure: each pair of dimensions is one "
                          "frequency, and the higher the dimension, the longer the wavelength.",
    "emb.steps_expander": "The formula step by step at d_model = {d_model}, as a walk-through "
                          "prints it",
    "emb.steps_text": "With max_len = {max_len}, as a walk-through builds it: `position` is "
                      "({max_len}, 1); `div_term = exp(arange(0, d_model, 2) · (−ln 10000 / "
                      "d_model))` has {half} values; `product = position * div_term` "
                      "broadcasts to ({max_len}, {half}); `pe[:, 0::2] = sin(product)` and "
                      "`pe[:, 1::2] = cos(product)` fill a ({max_len}, {d_model}) table. Its "
                      "first and last three rows and columns, as `print(pe)` shows them:",
    "emb.steps_caption": "At d_model = 68 the first three rows are the walk-through's printout, "
                         "number for number. Its last three rows are not row {row} and the two "
                         "above it, though it prints the shape (1024, 68): they begin with "
                         "{first} = sin(49,997), the rows of a table of 50,000 positions, where "
                         "row {row} begins with sin({row}) = {last}. Its model elsewhere is "
                         "built with d_model = 512 and T = 4 tokens, not the 68 and 3 it prints.",
    "emb.table_header": "The whole table",
    "emb.table_caption": "Left columns change fast with the position, right columns slowly: like "
                         "the digits of a counter, together they give each position a unique "
                         "pattern.",
    "emb.sim_header": "Which positions look alike",
    "emb.sim_caption": "PE(p)·PE(q) is largest on the diagonal and depends only on the distance "
                       "|p − q|: nearby positions have similar codes, wherever they are in the "
                       "sentence.",
    "emb.shift_header": "Why PE(pos + k) is a linear function of PE(pos)",
    "emb.shift_text": "For one frequency w, the angle-addition formulas give sin(w(p+k)) = "
                      "sin(wp)·cos(wk) + cos(wp)·sin(wk) and cos(w(p+k)) = cos(wp)·cos(wk) − "
                      "sin(wp)·sin(wk). The factors cos(wk) and sin(wk) depend on k only, not "
                      "on p. So one matrix M_k, a 2×2 rotation for every sine/cosine pair, "
                      "moves *any* position k steps forward. The paper (§3.5) chose the "
                      "sinusoids because it *hypothesised* that this would let the model "
                      "learn to attend by relative positions easily; the identity is exact, "
                      "whether a model uses it is up to training.",
    "emb.k_label": "offset k",
    "emb.shift_metric": "max |M_k·PE(pos) − PE(pos+k)| over all positions",
    "emb.shift_caption": "Numerically zero: the same matrix works for every position.",
    "emb.mistake_divide": "**A common mistake: dividing by √d_model.** Some walk-throughs say the "
                          "embedding is *divided* by √d_model; the paper (§3.4) and The Annotated "
                          "Transformer *multiply*. On your sentence (d_model = {d_model}), the "
                          "embeddings' mean |value| is {times} multiplied and {divided} divided, "
                          "against {pe} for the positional encoding they are added to: divided, "
                          "the word would be about {ratio} times smaller than its position, and "
                          "the sum would carry little of the word.",
    "emb.tokens_header": "Your tokens: embedding + position",
    "emb.not_scaled": "(not scaled)",
    "emb.tokens_text": "The source tokens go through `Embeddings` ({lookup}) and "
                       "`PositionalEncoding` adds row *pos* of the sinusoid table for this "
                       "model's d_model = {d_model} (the same formula as the table above, which "
                       "is drawn for the d_model you chose there). Dropout then "
                       "applies{dropout}",
    "emb.lookup_scaled": "a lookup table, then × √d_model = √{d_model} = {sqrt}",
    "emb.lookup_unscaled": "a lookup table, not scaled: this model does not multiply by "
                           "√d_model",
    "emb.dropout_train": " — **train mode is on, so some values are zeroed and the rest scaled "
                         "up**.",
    "emb.dropout_eval": " (off in eval mode).",
    "emb.embedding_scaled": "embedding {scale}",
    "emb.positional_encoding": "positional encoding",
    "emb.sum_title": "sum: what the encoder gets",
    "emb.embedding_raw": "embedding (raw)",
    "emb.why_scale": "Why multiply by √d_model? This model's embedding table holds small "
                     "values: at most {bound} in absolute value here. (The Annotated "
                     "Transformer's `make_model` initialises a vocab × d_model table with "
                     "Xavier, in ±√(6/(vocab + d_model)): ±{xavier} for this model's {vocab} "
                     "tokens and d_model = {d_model}.) Neither the paper nor The Annotated "
                     "Transformer says why it scales; a common interpretation is that scaling "
                     "brings the embeddings to the size of the positional encoding (values in "
                     "[−1, 1]) so that the position signal does not drown out the word. Turn "
                     "the scaling off in the sidebar's teaching options to see the "
                     "difference. Repeated words get the same embedding but a different "
                     "position, so their sums differ.",

    # ---- Masks page (pages/masks.py) ----
    "mask.title": "Masks",
    "mask.intro": "A mask says, for every query position, which key positions it may attend to. "
                  "In this app's code (as in the Annotated Transformer) **True / 1 means *may "
                  "attend*** and the attention does `scores.masked_fill(mask == 0, -1e9)` before "
                  "the softmax, so blocked positions get a weight of exp(−1e9), which is exactly "
                  "0 in float32 (see below), as long as the row keeps a key it may attend to. A "
                  "row whose every key is blocked has only −1e9 scores, all equal, and the "
                  "softmax spreads it evenly: 1/n on each of its n keys (the mistake below "
                  "shows such a row). Two masks exist: the **padding mask** hides `<pad>` "
                  "tokens that only fill a batch to equal length, and the **subsequent mask** "
                  "stops the decoder from looking at later positions.",
    "mask.sub_header": "The subsequent (look-ahead) mask",
    "mask.sub_text": "Row *i* is the decoder position that predicts the next token; it may "
                     "attend to positions 0..*i* only. During training the whole target is fed "
                     "at once (teacher forcing), so without this mask position *i* could simply "
                     "read the word it must predict at position *i*+1.",
    "mask.size_label": "Size of the mask",
    "mask.size_placeholder": "your sentence: {n}",
    "mask.size_sentence": "your decoder input's length ({n})",
    "mask.sub_beyond": "Positions from {first} on lie past the end of your decoder input "
                       "({first} tokens): they have no token, hence labels such as "
                       "{first}:{none}. The mask depends only on its size.",
    "mask.size_help": "Empty: one row and column per position of your decoder input (`<s>` and the"
                      " target). Type a size (1–32) to see the mask on its own, e.g. 5 or 20, the "
                      "sizes code walk-throughs print; it depends on nothing but the size.",
    "mask.sub_caption": "Shape (1, {size}, {size}): {allowed} of the {total} query–key pairs may "
                        "attend, the diagonal and below, i.e. {size}·({size} + 1)/2. The Annotated"
                        " Transformer builds the same matrix as `triu(ones, k=1) == 0`.",
    "mask.pad_header": "Padding, and the combined target mask",
    "mask.pad_text": "Sentences in a batch have different lengths, so shorter ones are padded "
                     "with `<pad>` (id 0). `Batch` builds `src_mask = (src != pad).unsqueeze(-2)`"
                     ", shape (batch, 1, src_len): one row per sentence, broadcast over every "
                     "query and every head. For the target it combines padding with the "
                     "subsequent mask: `tgt_mask = (tgt != pad).unsqueeze(-2) & "
                     "subsequent_mask(T)`, shape (batch, T, T).",
    "mask.len_label": "length of sentence {name}",
    "mask.src_mask_title": "src_mask, shape {shape}",
    "mask.row_sentence": "sentence",
    "mask.col_position": "position (token)",
    "mask.pad_caption": "Each row is one sentence: 1 = real token, 0 = padding. With lengths 3 "
                        "and 4 this is the walk-through's example: [1 1 1 0] and [1 1 1 1].",
    "mask.cross_mask": "The decoder's cross-attention (`src_attn`) reads this same `src_mask`, "
                       "not a mask of all ones as a walk-through has it: with all ones, every "
                       "target position of the shorter sentence would also attend to the "
                       "source's padding (here {pads} `<pad>` position(s)).",
    # pages/masks.py: the two target masks' titles, on two lines so that they stay apart
    "mask.tgt_title": "tgt_mask[{i}]\n{name}, length {n}",
    "mask.tgt_caption": "tgt_mask has shape {shape}. In the shorter sentence the padded columns "
                        "are 0 in every row; the padded rows still attend to the real tokens, "
                        "and their predictions are simply ignored by the loss.",
    "mask.heads_text": "Inside `MultiHeadedAttention`, `mask.unsqueeze(1)` adds a head axis: "
                       "the encoder's mask becomes (batch, 1, 1, src_len) and the decoder's "
                       "(batch, 1, T, T). The size-1 axes broadcast: every head, and for the "
                       "encoder every query row, uses the same mask.",
    "mask.mistake_src": "A common mistake: calling the decoder's self-attention mask the "
                        "“src-attention mask”. The decoder's self-attention reads `tgt_mask` "
                        "(padding AND subsequent, one T × T matrix per sentence); `src_mask` "
                        "(batch, 1, S) serves the encoder's self-attention and the decoder's "
                        "cross-attention, which The Annotated Transformer calls `src_attn`. Given "
                        "`src_mask`'s kind of mask instead, your decoder input of T = {T} "
                        "positions would let {future} query–key pairs look at later positions, "
                        "every pair the subsequent mask blocks.",
    "mask.effect_header": "What masking does to the scores and the softmax",
    "mask.effect_yours": "Decoder self-attention, layer 0, head 0, for your target:",
    "mask.effect_random": "Random scores (fix the settings above to see your own sentence's):",
    "mask.effect_text": "Without the mask every row spreads its weight over all positions, later "
                        "ones included. With it, the blocked scores become −1e9, the softmax "
                        "gives them 0 (exactly 0 in float32: see below), and the remaining "
                        "weights of each row are renormalised to sum to 1. A large negative "
                        "number is used rather than −∞ so that a row whose keys are *all* blocked "
                        "does not produce NaN:",
    "mask.seed_example": "One of the code walk-throughs shows both cases on one input: q = k = v "
                         "= the embeddings (× √d_model) plus positional encoding of 4 tokens at "
                         "d_model = 512, without projections. Computed here the same way:",
    "mask.no_mask": "no mask",
    "mask.all_blocked": "every key blocked",
    "mask.key_col": "key {j}",
    "mask.none_caption": "Each row's score with itself is {own} on average, its scores with the "
                         "other positions {other} (in absolute value): a vector compared with "
                         "itself gives |x|² / √d_model, and x was multiplied by √d_model. So "
                         "the softmax puts {diag} on the diagonal (to four decimals): each "
                         "position attends only to itself.",
    "mask.all_caption": "Uniform weights, {weight} for each of the 4 keys: every score is the "
                        "same −1e9.",
    "mask.inf_caption": "With −∞ instead, as a walk-through fills (`masked_fill(mask == 0, "
                        "float('-inf'))`), the same row comes out as [{row}]: exp(−∞ − (−∞)) is "
                        "not a number, and a NaN spreads to everything computed from it, the "
                        "loss included.",
    "mask.mistake_header": "A common mistake: the other convention's fill",
    "mask.mistake_text": "Some walk-throughs build the lower-triangular mask of 1s, as this app "
                         "does, and then fill it with `scores.masked_fill(mask == 1, -1e9)`, the "
                         "fill of the other convention. That blocks the diagonal and everything "
                         "before it, so every position may look only at later positions: exactly "
                         "what the mask was meant to forbid, and the training loss still falls, "
                         "because the model can now read the answer. Below: the same scores as in "
                         "“{section}”, filled that way.",
    "mask.mistake_title": "softmax after masked_fill(mask == 1, -1e9): only later positions are "
                          "left",
    "mask.mistake_caption": "Computed on those scores: row 0, which should attend only to itself, "
                            "gives {first} of its weight to later positions; the last row has "
                            "every key blocked, so it spreads {last} on each of the {n} positions "
                            "(1/{n} = {uniform}). The right fill is `masked_fill(mask == 0, "
                            "-1e9)` with this mask.",
    "mask.conv_header": "Two conventions for the same mask",
    "mask.conv_text": "Some tutorials store the opposite: **1 = masked** (hide this position), "
                      "and write `scores.masked_fill(mask == 1, -1e9)`. Their subsequent mask has "
                      "1s *above* the diagonal. Both describe the same rule; what matters is that "
                      "the mask and the `masked_fill` condition agree. PyTorch itself uses both: "
                      "`nn.MultiheadAttention`'s boolean mask means True = *not allowed*, while "
                      "`F.scaled_dot_product_attention`'s means True = *takes part* (as in this "
                      "app).",
    "mask.conv_this_app": "True/1 = may attend (this app)",
    "mask.conv_other": "1 = masked (the other way)",
    "mask.conv_caption": "Same colours (blue = may attend) in both; only the stored numbers "
                         "differ.",

    # ---- Shapes page (pages/shapes.py) ----
    "shapes.title": "Shapes",
    "shapes.intro": "Every tensor the model computes for your sentence, in the order it is "
                    "computed. Most keep the shape **(batch, seq, d_model)**: each sublayer reads "
                    "and writes vectors of the same width, which is what lets the residual "
                    "connections add them. Inside attention the width is split into **h heads "
                    "of d_k**, and the scores are **(batch, h, q_len, k_len)**.",
    "shapes.part": "Part",
    "shapes.layer": "Layer",
    "shapes.all": "all",
    "shapes.attn_only": "Attention internals only",
    "shapes.caption": "{shown} of {total} tensors · batch = 1, src_len = {src_len}, tgt_len = "
                      "{tgt_len}, d_model = {d_model}, h = {h}, d_k = {d_k}, d_ff = {d_ff}. "
                      "Select a row to see its values.",
    "shapes.examples_expander": "The walk-throughs' examples: multi-head attention on a batch of "
                                "2, a Batch of 48 sentences, and attention on (30, 8, 33, 64)",
    "shapes.mha_example": "**Multi-head self-attention on a batch of {batch}.** This app's "
                          "`MultiHeadedAttention(h={h}, d_model={d_model})` reads {batch} "
                          "sequences of {seq} random vectors of {d_model} numbers, the input "
                          "(batch, seq, d_model) = ({batch}, {seq}, {d_model}), and gives back the"
                          " same shape. In between, each of the {h} heads works on d_k = {d_model}"
                          " / {h} = {d_k} numbers per position:",
    "shapes.batch_example": "**A training `Batch` of {batch} sentences.** Sources padded to the "
                            "longest, {src_len} tokens: src ({batch}, {src_len}); targets padded "
                            "to {tgt_len}: tgt ({batch}, {tgt_len}). `Batch(src, tgt)` shifts the "
                            "target by one for teacher forcing (decoder input without the last "
                            "token, labels without the first), so both have {t_len} positions, and"
                            " the target mask is one {t_len} × {t_len} matrix per sentence:",
    "shapes.batch_example_caption": "ntokens = {ntokens}: the labels that are not padding, out of "
                                    "{labels} (here every sentence but the first ends with "
                                    "padding). The loss is divided by it.",
    "shapes.col_size": "shape",
    "shapes.col_what": "what it is",
    "shapes.ex.x": "the input: query, key and value all at once (self-attention)",
    "shapes.ex.hook_q": "queries, projected and split into heads (batch, h, seq, d_k)",
    "shapes.ex.hook_k": "keys, projected and split into heads",
    "shapes.ex.hook_v": "values, projected and split into heads",
    "shapes.ex.hook_scores": "Q·Kᵀ / √d_k: one score per query–key pair, per head",
    "shapes.ex.hook_masked_scores": "the scores after the mask (no mask here: unchanged)",
    "shapes.ex.hook_pattern": "softmax over the keys: the attention weights",
    "shapes.ex.hook_z": "the weights times V, per head",
    "shapes.ex.hook_concat": "the heads side by side again (batch, seq, h·d_k)",
    "shapes.ex.hook_out": "the output projection W_O: the same shape as the input",
    "shapes.ex.src": "source ids, padded",
    "shapes.ex.src_mask": "True on real source tokens: (batch, 1, src_len), broadcast over the "
                          "queries",
    "shapes.ex.tgt": "decoder input: the target without its last token",
    "shapes.ex.tgt_y": "labels: the target without its first token",
    "shapes.ex.tgt_mask": "not padding AND not a later position, one matrix per sentence",
    "shapes.col_part": "part",
    "shapes.col_layer": "layer",
    "shapes.col_sublayer": "sublayer",
    "shapes.col_tensor": "tensor",
    "shapes.col_shape": "shape (named)",
    "shapes.col_operation": "operation",
    "shapes.col_full_name": "full name",
    "shapes.download_csv": "Download the table as CSV",
    "shapes.head": "head",
    "shapes.masked_caption": "Blank cells were filled with −1e9 by the mask.",
    "shapes.split_header": "Splitting into heads and concatenating them back",
    "shapes.split_text": "`linears[0](x)` gives (batch, seq, d_model = {d_model}). "
                         "`.view(batch, -1, h, d_k)` reinterprets each row as {h} pieces of "
                         "{d_k}, and `.transpose(1, 2)` moves the head axis forward: (batch, h, "
                         "seq, d_k), so every head attends independently. After attention, "
                         "`.transpose(1, 2).contiguous().view(batch, -1, h * d_k)` undoes it: "
                         "head *j*'s output fills columns *j*·d_k to (*j*+1)·d_k.",
    "shapes.qkv_seq": "A walk-through writes Q, K and V as batchsize × d_model. Each also has a "
                      "sequence axis: in encoder layer 0, what goes into the attention (and "
                      "comes out) is {x}, Q is {q} once split into heads, and the scores {scores} "
                      "hold one number for every pair of positions, which a Q without positions "
                      "could not give. Another walk-through's comment at the top of "
                      "`MultiHeadedAttention.forward` calls query, key and value (batch, h, seq, "
                      "d_k) already: forward receives them 3-D, {x}, and they become 4-D, {q}, "
                      "only in its step 1, `linears[i](x).view(batch, -1, h, d_k)"
                      ".transpose(1, 2)`.",
    "shapes.split_caption": "Left: each head's output p_attn @ V, (seq, d_k) per head. Right: "
                            "the same numbers after transpose + view, (seq, d_model), before "
                            "W^O; black lines mark where one head's columns end. The blocks are "
                            "identical: concatenation only moves numbers, and the split before "
                            "attention is the same move backwards. Which attention is shown "
                            "follows the part and layer chosen above (the encoder's layer 0 "
                            "when both are \"all\").",
    "shapes.too_many_heads": "{h} heads are too many to draw side by side; pick h ≤ 16 to see "
                             "the split.",
    # pages/shapes.py: the head split follows the part / layer filters
    "shapes.split_which": "{kind}, layer {layer}: {module}",

    # ---- Model description (explorer/core/introspect.py) ----
    "intro.group.src_embed": "Source embedding",
    "intro.group.tgt_embed": "Target embedding",
    "intro.group.generator": "Generator (output layer)",
    "intro.group.enc_self_attn": "Encoder self-attention",
    "intro.group.enc_ff": "Encoder feed-forward",
    "intro.group.enc_norms": "Encoder LayerNorms",
    "intro.group.dec_self_attn": "Decoder self-attention",
    "intro.group.dec_cross_attn": "Decoder cross-attention",
    "intro.group.dec_ff": "Decoder feed-forward",
    "intro.group.dec_norms": "Decoder LayerNorms",
    "intro.comp.Embeddings": "Token ids to vectors, times √d_model",
    "intro.comp.PositionalEncoding": "Adds the fixed sine/cosine position signal",
    "intro.comp.attention": "Scaled dot-product attention",
    "intro.comp.MultiHeadedAttention": "h heads in parallel, then W^O",
    "intro.comp.PositionwiseFeedForward": "Two linear layers with ReLU",
    "intro.comp.LayerNorm": "Normalise each vector, then scale and shift",
    "intro.comp.SublayerConnection": "Residual connection + LayerNorm (pre or post)",
    "intro.comp.EncoderLayer": "Self-attention + feed-forward",
    "intro.comp.DecoderLayer": "Masked self-attention + cross-attention + feed-forward",
    "intro.comp.Encoder": "N encoder layers + final norm",
    "intro.comp.Decoder": "N decoder layers + final norm",
    "intro.comp.Generator": "Linear + log_softmax",
    "intro.comp.EncoderDecoder": "The whole model",
    "intro.comp.subsequent_mask": "The look-ahead mask",
    "intro.comp.make_model": "Build the model from hyperparameters",
    "intro.stack.embeddings": "Embeddings",
    "intro.stack.encoder": "Encoder",
    "intro.stack.decoder": "Decoder",
    "intro.stack.output": "Output",
    "intro.layer_n": "layer {n}",
    "intro.layer_source": "source",
    "intro.layer_target": "target",
    "intro.sub.self_attn": "self-attention",
    "intro.sub.masked_self_attn": "masked self-attention",
    "intro.sub.cross_attn": "cross-attention",
    "intro.sub.feed_forward": "feed-forward",
    "intro.sub.generator": "generator",
    "intro.sub.final_norm": "final norm",
    "intro.op.no_scaling": "(no scaling)",
    "intro.op.fixed_sincos": "(fixed sines and cosines)",
    "intro.op.x_entering": "x entering the sublayer",
    "intro.op.post_no_final_norm": "(post-norm: no final norm)",

    # ---- Figures: shared (explorer/figures/common.py) ----
    "fig.common.row": "row",
    "fig.common.column": "column",
    "fig.common.value": "value",

    # ---- Figures: architecture and parameters (explorer/figures/model.py) ----
    "fig.arch.src_tokens": "Source tokens (src)",
    "fig.arch.src_ids": "ids x₁ … xₙ",
    "fig.arch.tgt_tokens": "Decoder input (tgt)",
    "fig.arch.tgt_ids": "<s> y₁ y₂ … (shifted right)",
    "fig.arch.embeddings": "Embeddings ({name})",
    "fig.arch.embed_table": "{vocab} × {d_model} table, {scale}",
    "fig.arch.not_scaled": "not scaled by √d_model",
    "fig.arch.pe": "+ positional encoding",
    "fig.arch.pe_fixed": "(fixed sin/cos)",
    "fig.arch.layernorm": "LayerNorm ({name})",
    "fig.arch.self_attn": "Self-attention",
    "fig.arch.masked_self_attn": "Masked self-attention",
    "fig.arch.cross_attn": "Cross-attention",
    "fig.arch.cross_sub": "src_attn: Q from x; K, V from memory",
    "fig.arch.feed_forward": "Feed-forward",
    "fig.arch.heads": "h={h} heads of d_k={d_k}",
    "fig.arch.mask_tag": "mask: {mask}",
    "fig.arch.hides_padding": "hides padding",
    "fig.arch.hides_later": "hides padding & later positions",
    "fig.arch.hides_src_padding": "hides source padding",
    "fig.arch.encoder_stack": "Encoder layer × {N}",
    "fig.arch.decoder_stack": "Decoder layer × {N}",
    "fig.arch.post_norm_1": "post-norm: no final LayerNorm",
    "fig.arch.post_norm_2": "(every layer already ends with one)",
    "fig.arch.linear": "Linear (generator.proj)",
    "fig.arch.output": "Output probabilities",
    "fig.arch.output_detail": " (log) for the next token at each position",  # after the title
    "fig.arch.generator": "Generator",
    "fig.arch.to_every_layer": "to every decoder layer",
    "fig.arch.shared": "shared weights",
    "fig.arch.parameters": "parameters",
    "fig.arch.param_hover": "%{y}: %{x:,} parameters<extra></extra>",

    # ---- Figures: attention (explorer/figures/attention.py) ----
    "fig.attention.kind_enc": "Encoder self-attention",
    "fig.attention.kind_dec": "Decoder masked self-attention",
    "fig.attention.kind_cross": "Cross-attention (decoder → encoder)",
    "fig.attention.mask_enc": "src_mask: padding only",
    "fig.attention.mask_dec": "tgt_mask: padding and later positions",
    "fig.attention.mask_cross": "src_mask: padding of the source",
    "fig.attention.mean_of_heads": "mean of heads",
    "fig.attention.head": "head {j}",
    "fig.attention.layer": "layer {i}",
    "fig.attention.query": "query",
    "fig.attention.key": "key",
    "fig.attention.weight": "weight",
    "fig.attention.feature_axis": "feature (d_k)",

    # ---- Figures: masks (explorer/figures/masks.py) ----
    "fig.masks.query_axis": "query (attending)",
    "fig.masks.key_axis": "key (attended to)",
    "fig.masks.query": "query",
    "fig.masks.key": "key",
    "fig.masks.may_attend": "may attend",
    "fig.masks.blocked": "blocked",
    "fig.masks.no_token": "—",  # a position past the end of the sentence has no token
    "fig.masks.scores": "scores",
    "fig.masks.softmax_without": "softmax without mask",
    "fig.masks.softmax_with": "softmax with mask",

    # ---- Figures: positional encoding (explorer/figures/embeddings.py) ----
    "fig.pos.curve_name": "dim {d} ({kind})",
    "fig.pos.dim": "dim",
    "fig.pos.position": "position",
    "fig.pos.pe_value": "PE value",
    "fig.pos.dimension_axis": "dimension (even: sin, odd: cos)",
    "fig.pos.dot_product": "dot product",
    "fig.pos.shift_title": "M_k for k = {k}: one 2×2 rotation per frequency",
    "fig.pos.feature_axis": "feature (d_model)",
    "fig.pos.mean_abs": "mean |value|",

    # ---- Figures: shapes (explorer/figures/shapes.py) ----
    "fig.shapes.slice_head": "[0, head {head}]",
    "fig.shapes.head": "head {j}",
    "fig.shapes.concat_title": "concat: (seq, h·d_k = d_model)",
    "fig.shapes.token": "token",
    "fig.shapes.feature": "feature",

    # ---- Figures: training (explorer/figures/train.py) ----
    "fig.film.step_prefix": "step: ",
    "fig.film.play": "Play",
    "fig.film.pause": "Pause",
    "fig.film.head_name": "layer {i} · head {j}",
    "fig.film.closeness": "closeness",
    "fig.film.closeness_axis": "weight on the ideal positions",
    "fig.film.baseline": "spread evenly",
    "fig.training.step": "step",
    "fig.training.step_axis": "training step",
    "fig.training.loss": "loss",
    "fig.training.loss_name": "loss per token",
    "fig.training.loss_axis": "loss (log)",
    "fig.training.accuracy": "token accuracy",
    "fig.training.accuracy_name": "token accuracy (teacher forcing)",
    "fig.training.accuracy_axis": "token acc.",
    "fig.training.token": "token",
    "fig.training.probability": "probability",
    "fig.training.next_token_axis": "next token (red: the greedy choice)",
    "fig.training.yours": " (yours)",
    "fig.training.learning_rate": "learning rate",
    "fig.training.confidence_title": "Loss of ever more confident predictions (ε = 0.1)",
    "fig.training.confidence_x": "x (the label's probability is x / (x + 3))",
    "fig.training.confidence_best": "lowest loss",
    "fig.training.smoothing_title": "smoothed targets, epsilon = {epsilon}",
    "fig.training.vocab_axis": "vocabulary token",
    # ---- sidebar (shared controls) ----
    "sidebar.source": "Source sentence",
    "sidebar.source_help": "What the encoder reads. Press Enter to apply.",
    "sidebar.target": "Target sentence (optional)",
    "sidebar.target_placeholder": "empty: the source itself (copy task)",
    "sidebar.target_help": "What the decoder is fed, after <s> (teacher forcing).",
    "sidebar.tokens": "Tokens",
    "sidebar.tokens_word": "words",
    "sidebar.tokens_char": "characters",
    "sidebar.tokens_unspaced": "Chinese (like Japanese or Thai) is written without spaces "
                               "between words; finding them needs a dictionary-based "
                               "segmenter, which this app does not use. So \"words\" splits "
                               "such characters one by one, exactly as \"characters\" does.",
    "sidebar.preset": "Model size",
    "sidebar.preset_help": "tiny trains in seconds; paper base is the paper's N=6, "
                           "d_model=512.",
    "sidebar.preset_custom": "custom",
    "sidebar.N": "N (layers)",
    "sidebar.h": "h (heads)",
    "sidebar.seed": "seed (initial weights)",
    "sidebar.teaching": "Teaching options",
    "sidebar.seed_short": "seed",
    "sidebar.following_size": "Model: {values}",
    "sidebar.following_size_note": "These are the teacher's settings. Change one and you "
                                   "explore on your own; \"Back to the class\" returns.",
    "sidebar.norm_placement": "LayerNorm placement",
    "sidebar.norm_placement_help": "Post (the paper, §3.1): `LayerNorm(x + Sublayer(x))`, after "
                                   "the residual sum. Pre (The Annotated Transformer): `x + "
                                   "Sublayer(LayerNorm(x))`, and one more LayerNorm at the end of "
                                   "each stack. A walk-through calls pre-norm basically the "
                                   "paper's: it is not, the two compute different functions "
                                   "(switch and compare the Shapes page's tensors).",
    "sidebar.norm_pre": "pre (Annotated)",
    "sidebar.norm_post": "post (paper)",
    "sidebar.layer_norm": "LayerNorm formula",
    "sidebar.scale_embedding": "Scale embeddings by √d_model",
    "sidebar.tie_weights": "Weight tying",
    "sidebar.tie_none": "none",
    "sidebar.tie_decoder": "decoder embedding = output layer",
    "sidebar.tie_all": "all three tables",
    "sidebar.train_mode": "Train mode (dropout on)",
    "sidebar.params": "Parameters",
    "sidebar.share": "Link to this view",
    "sidebar.copy_link": "Copy link to this view",
    "sidebar.copied": "Copied ✓",
    "sidebar.share_help": "This link opens what you see: the sentence and target, the model's "
                          "settings, the language, presenter mode and every page's choices "
                          "(layer, head, attention kind, knock-out, the Train & decode page's "
                          "task, symbols and training settings, the decoding's input, model, "
                          "step, layer and head, beam size, what to break). It does not carry a "
                          "trained or imported model (those stay in your session: whoever opens "
                          "the link trains or imports their own), or the demonstration sliders "
                          "of its schedule and label-smoothing charts. Copy "
                          "it with the button at the right of the box, or with \"Copy link to "
                          "this view\".",
    "sidebar.fixed_by_checkpoint": "Your checkpoint fixes the model's size and options (shown "
                                   "here, read-only). \"Back to the sidebar's model\" below "
                                   "brings your own settings back.",
    "sidebar.tokens_table": "Tokens as the model sees them ({n} source)",
    "sidebar.col_source": "source token",
    "sidebar.col_decoder": "decoder input",
    # ---- attention page ----
    "attn.title": "Attention",
    "attn.intro": "Attention lets every position gather information from other positions. "
                  "Each head compares a **query** (what this position is looking for) with "
                  "every **key** (what each position offers), turns the scores into weights "
                  "with a softmax, and returns the weighted sum of the **values**: "
                  "`softmax(Q Kᵀ / √d_k) V`. A row of a heatmap below is one query token; its "
                  "weights over the key tokens add up to 1.",
    "attn.which": "Which attention",
    "attn.average": "Average the heads",
    "attn.average_help": "Show the mean of the h heads' weights in each layer.",
    "attn.side_src": "source",
    "attn.side_tgt": "decoder input",
    "attn.axes": "Queries: {queries} tokens (rows) · keys: {keys} tokens (columns) · mask: "
                 "{mask}",
    "attn.random_weights": "**These weights are random** (drawn from seed {seed}): this model "
                           "has not been trained, so the heatmaps show how attention is "
                           "computed, not what a trained model attends to. Train a model on "
                           "the Train & decode page, or load a checkpoint in the sidebar, to "
                           "see learned attention.",
    "attn.checkpoint_weights": "These are the weights of your checkpoint: whatever it learned "
                               "shows here.",
    "attn.train_mode": " · **train mode: dropout is on**: every rerun draws new dropout "
                       "masks, so the weights shown change too (dropout on the embedding + PE "
                       "sum and in earlier sublayers feeds the queries and keys). They are "
                       "shown before this attention's own dropout, so each row still sums to 1",
    "attn.too_many": "{N} layers × {h} heads × {q} × {k} tokens is too many cells to draw one "
                     "heatmap per head, so the grid shows the mean of the heads. The focus "
                     "view below shows any single head.",
    "attn.upper_triangle": "The upper triangle is empty: the subsequent mask stops each "
                           "position from looking at later ones, so the decoder cannot peek "
                           "at the word it must predict.",
    "attn.focus_header": "One head, step by step",
    "attn.layer": "Layer",
    "attn.head": "Head",
    "attn.step1": "**1. Project and split.** `linears[0..2]` (d_model → d_model) make Q, K "
                  "and V. Q comes from the layer's input x (with pre-norm, from "
                  "LayerNorm(x)); K and V come from the same x in self-attention, and from "
                  "`memory`, the encoder's output, in cross-attention. Each is cut into {h} "
                  "heads of d_k = {d_k}. This head's slice:",
    "attn.step2": "**2. Scores** `Q @ Kᵀ / √d_k`, with √d_k = {sqrt_dk}. Why divide? If the "
                  "entries of q and k are independent with mean 0 and variance 1, q · k has "
                  "variance d_k (§3.2.1, footnote 4): large dot products push the softmax "
                  "into regions where its gradients are extremely small. Dividing by √d_k "
                  "brings the variance back to 1.",
    "attn.scores_title": "scores ({shape})",
    "attn.masked_title": "masked scores: blank = -1e9 ({n} blocked)",
    "attn.mistake_exploding": "A common mistake is to say the division by √d_k prevents "
                              "*exploding* gradients. It prevents the opposite. On this head (d_k "
                              "= {d_k}), the scores' variance is {var_scaled} as computed and "
                              "{var_unscaled} without the division; the softmax's largest weight "
                              "per row averages {max_scaled} against {max_unscaled}, and its "
                              "gradient size Σ p(1 − p) per row {grad_scaled} against "
                              "{grad_unscaled}. Larger scores saturate the softmax, and a "
                              "saturated softmax passes back *smaller* gradients (§3.2.1: "
                              "“extremely small gradients”). The gap grows with d_k; try the "
                              "paper-base preset.",
    "attn.step3": "**3. Softmax** over each row turns scores into weights that sum to 1; a "
                  "blocked position gets exp(-1e9), exactly 0 in float32, when its row has a "
                  "key it may attend to (a row with every key blocked spreads 1/n on each of "
                  "its n keys).",
    "attn.weights_title": "weights p_attn ({shape})",
    "attn.z_title": "4. weighted sum p_attn @ V ({shape})",
    "attn.step5": "**5. Concatenate and mix.** The {h} heads' outputs (each {q} × {d_k}) are "
                  "put side by side into {q} × {d_model} and multiplied by W^O "
                  "(`linears[3]`). See the Shapes page for every tensor of this pass.",
    "attn.npz": "Download every captured tensor of this run (.npz)",
    "attn.npz_help": "One array per hook point (names as on the Shapes page), plus the tokens and "
                     "the model's own vocabulary: tokens.vocab[i] is the token of column i of the "
                     "log-probabilities, tokens.src_vocab names the source ids. Open with "
                     "numpy.load(path). Every chart has its own PNG download: the camera icon in "
                     "its toolbar.",
    # ---- Knock out a head (explorer/sections/knockout.py) ----
    "ko.header": "Knock out a head",
    "ko.open": "Try it: switch off a head or a sublayer",
    "ko.intro": "Switch off one head, or a whole sublayer, and see what the model loses: its "
                "answer to your input, and its exact accuracy on fresh inputs of its task. The "
                "head's output is replaced by zeros by a hook during these runs only; the model's "
                "weights are not changed.",
    "ko.part": "Sublayer",
    "ko.part_encoder_feed_forward": "Encoder feed-forward network",
    "ko.part_decoder_feed_forward": "Decoder feed-forward network",
    "ko.whole": "the whole sublayer",
    "ko.unit": "{part}, {layer}, {head}",
    "ko.refused": "That knock-out is not part of this model (a layer or head beyond it, or a "
                  "value the menus do not offer): the first choice is shown instead.",
    "ko.how": "Removed by the hook point `{hook}`, inside this run only.",
    "ko.answer_intact": "**Answer of the whole model** (greedy decoding of your input)",
    "ko.answer_without": "**Answer with the knock-out**: {unit}",
    "ko.answer_same": "The answer to your input does not change.",
    "ko.answer_changed": "The answer changes at {n} of {total} positions.",
    "ko.train_mode": "Dropout is on in the sidebar (train mode); these answers are decoded "
                     "with dropout off, so that they differ only by the knock-out.",
    "ko.no_task_untrained": "This untrained model has never learned a task, so there is no "
                            "accuracy to measure (nor what a head costs): only its answer to your "
                            "input, above, shows what the knock-out changes. Train a model on the "
                            "Train & decode page and choose it in the sidebar, or look at the "
                            "date translator.",
    "ko.no_task_file": "The imported file names none of this app's tasks, so there is no accuracy "
                       "to measure (nor what a head costs): only the answer to your input, above, "
                       "shows what the knock-out changes.",
    "ko.no_task_vocab": "This model's vocabulary is not the one of the task its file names, so "
                        "there is no accuracy to measure: only the answer to your input, above, "
                        "shows what the knock-out changes.",
    "ko.no_task_long": "This model's positional table is shorter than its task's longest "
                       "sequence, so there is no accuracy to measure: only the answer to your "
                       "input, above, shows what the knock-out changes.",
    "ko.measuring": "Decoding fresh inputs with and without the knock-out…",
    "ko.acc_intact": "Exact accuracy, whole model ({n} inputs)",
    "ko.acc_without": "Exact accuracy, with the knock-out ({n} inputs)",
    "ko.points": "{d} points",
    "ko.acc_caption": "{n} {sequences} of the {task} task, the same ones for every knock-out; "
                      "an input counts as right only if the whole answer is.",
    # what an evaluation decodes (explorer/training/task.py `evaluated_text`)
    "eval.held": "held-out sequences (never in a training batch)",
    "eval.not_held": "sequences drawn as training draws them (this task has too few different "
                     "sequences to hold any out)",
    "ko.acc_caption_dates": "Measured here on {n} dates of the {task} task from days held out of "
                            "training (drawn with a fixed seed, the same ones for every "
                            "knock-out); a date counts as right only if the whole answer is.",
    "ko.measure": "Measure every head ({count} heads)",
    "ko.measure_help": "Removes each head alone and decodes the same {n} inputs each time "
                       "({count} accuracies); about {seconds} s here, from the time the accuracy "
                       "above took.",
    "ko.progress": "Accuracy {done} of {total}",
    "ko.no_pattern": "A feed-forward network has no attention pattern: it treats each "
                     "position on its own.",
    "ko.pattern_title": "Weights: {unit}",
    "ko.grid_caption": "Accuracy lost when each head alone is removed, on {n} fresh inputs (whole "
                       "model: {intact}); {count} heads measured in {seconds} s. The most "
                       "important one is {best} ({lost} lost); {unchanged} heads cost nothing. "
                       "Blue: the model did better without the head.",
    "ko.fig_lost": "Accuracy lost",
    "ko.fig_intact": "whole model: {intact}",
    "ko.fig_scale": "lost",

    # ---- the sidebar's cached compute (explorer/app/import_panel.py) ----
    "ui.running_sentence": "Running your sentence through the model…",

    # ---- link notices (explorer/state/urlstate.py) ----
    "url.refused": "The link's {label} was not used: {expected}. {fallback}",
    "url.label.source": "source sentence",
    "url.label.target": "target sentence",
    "url.label.token_mode": "token mode",
    "url.label.preset": "model size",
    "url.label.N": "N (layers)",
    "url.label.d_model": "d_model",
    "url.label.h": "h (heads)",
    "url.label.d_ff": "d_ff",
    "url.label.seed": "seed",
    "url.label.dropout": "dropout",
    "url.label.norm_placement": "LayerNorm placement",
    "url.label.layer_norm": "LayerNorm formula",
    "url.label.tie_weights": "weight tying",
    "url.label.scale_embedding": "embedding scaling",
    "url.label.train_mode": "train mode",
    "url.label.model": "model to look at",
    "url.label.lang": "language",
    "url.label.layer": "attention layer",
    "url.label.head": "attention head",
    "url.label.kind": "attention kind",
    "url.label.pe_d_model": "positional-encoding d_model",
    "url.label.pe_dims": "list of positional-encoding dimensions",
    "url.label.task": "training task",
    "url.label.presenter": "presenter mode",
    "url.label.average": "head averaging",
    "url.label.mask_len": "sentence length on the Masks page",
    "url.label.mask_size": "subsequent-mask size on the Masks page",
    "url.label.shape_part": "Shapes page part",
    "url.label.shape_layer": "Shapes page layer",
    "url.label.shape_attn": "Shapes page attention filter",
    "url.expect_text": "it must be text of at most {n} characters",
    "url.expect_one_of": "it must be one of {choices}",
    "url.expect_int": "it must be a whole number from {low} to {high}",
    "url.expect_number": "it must be a number from {low} to {high}",
    "url.expect_bool": "it must be 1 (on) or 0 (off)",
    "url.expect_layer": "it must be a layer from 0 to {last} (N = {N})",
    "url.expect_head": "it must be a head from 0 to {last} (h = {h})",
    "url.expect_even": "it must be an even number from {low} to {high}",
    "url.expect_dims": "they must be 1 to {n} distinct whole numbers from 0 to {last}, "
                       "separated by commas",
    "url.use_page_default": "Using the page's default.",
    "url.use_value": "Using {value}.",
    "url.use_default_text": "Using the default {label}.",
    "url.use_on": "Using on.",
    "url.use_off": "Using off.",

    # ---- sidebar validation (explorer/core/settings.py); {name} is a setting's identifier ----
    "settings.value_of_type": "a value of type {type}",
    "settings.int_whole": "{name} must be a whole number between {low} and {high}; got {value}.",
    "settings.int_range": "{name} must be between {low} and {high}; got {value}.",
    # a number box (explorer/app/numbers.py): what it did to a number outside its range
    "number.below": "{name}: {given} is less than {low}, the smallest allowed; {used} is used.",
    "number.above": "{name}: {given} is more than {high}, the largest allowed; {used} is used.",
    "number.odd": "{name}: {given} is odd and only even numbers are allowed; {used} is used.",
    "number.not_whole": "{name}: {given} is not a whole number; {used} is used.",
    "number.not_number": "{name}: that is not a number from {low} to {high}; {used} is used.",
    "settings.choice": "{name} must be one of {allowed}; got {value}.",
    "settings.bool": "{name} must be on or off; got {value}.",
    "settings.not_text_source": "The source text must be text; got {type}.",
    "settings.not_text_target": "The target text must be text; got {type}.",
    "settings.dropout": "dropout must be a number from 0 to {high}; got {value}.",
    "settings.too_many_params": "This model would have {params}M parameters; the limit is "
                                "{limit}M so that one learner cannot use up the shared "
                                "server's memory. Reduce N, d_model or d_ff (the paper's base "
                                "model has about 65M, 44M of it in the two stacks).",
    "settings.too_big_to_train": "Training is limited to models of up to {limit}M parameters "
                                 "(this one has {params}M): larger ones cannot learn within the "
                                 "{seconds}-second limit on a shared server. The tiny preset "
                                 "trains in seconds.",

    # ---- checkpoint errors and notes (explorer/core/checkpoint.py) ----
    "ckpt.err.save_hint": "Save it with torch.save(model.state_dict(), path).",
    "ckpt.err.not_a_name": "(a key that is not a parameter name)",
    "ckpt.err.list_sep": ", ",
    "ckpt.err.and_more": " and {n} more",
    "ckpt.err.one_layer": "1 layer",
    "ckpt.err.layers": "{n} layers",
    "ckpt.err.a_type": "(a {type})",
    "ckpt.err.list_not_utf8": "The token list is not UTF-8 text.",
    "ckpt.err.list_not_text": "The token list must be text: one token per line.",
    "ckpt.err.list_too_long": "The token list has {n} characters; the limit is {limit}. It "
                              "should hold one token per line.",
    "ckpt.err.token_too_long_line": "The token list's line {i} is {n} characters long; tokens "
                                    "may have at most {limit}. Is this the right file (one "
                                    "token per line)?",
    "ckpt.err.token_too_long_token": "The token list's token {i} is {n} characters long; "
                                     "tokens may have at most {limit}. Is this the right file "
                                     "(one token per line)?",
    "ckpt.err.duplicate_line": "The token list has the same token at lines {a} and {b}: each "
                               "id needs its own token.",
    "ckpt.err.duplicate_token": "The token list has the same token at tokens {a} and {b}: "
                                "each id needs its own token.",
    "ckpt.err.not_bytes": "The checkpoint must be the bytes of a file saved with torch.save.",
    "ckpt.err.empty": "The file is empty. Choose a checkpoint saved with torch.save.",
    "ckpt.err.too_big": "The file is {size}; the limit is {limit} so that loading it cannot "
                        "use up the shared server's memory.",
    "ckpt.err.unpacks_too_big": "The file unpacks to {size}; the limit is {limit}.",
    "ckpt.err.python_objects": "The file contains Python objects, not only weights (for "
                               "example a whole model saved with torch.save(model)). For "
                               "safety only tensors and plain containers are read. {hint}",
    "ckpt.err.not_pytorch": "The file is not a PyTorch checkpoint. Expected a file written by "
                            "torch.save holding a state_dict. {hint}",
    "ckpt.err.damaged": "The file is damaged or incomplete (cut short while saving or "
                        "uploading?). Expected a file written by torch.save holding a "
                        "state_dict. {hint}",
    "ckpt.err.file_memory": "The file asks for more memory than the server has.",
    "ckpt.err.not_a_dict": "The file holds a {type}, not a dictionary of weights. {hint}",
    "ckpt.err.unknown_format": "The file says it has a format this app does not know; this "
                               "app writes and reads {format} (and plain state_dicts).",
    "ckpt.err.export_incomplete": "The file says it is a {format} checkpoint but lacks its "
                                  "'state_dict' or 'config' dictionary; it may be damaged. "
                                  "Export it again from the app.",
    "ckpt.err.no_weights": "No weights found in the file: expected a state_dict (parameter "
                           "name -> tensor) or a dictionary holding one under {keys}. {hint}",
    "ckpt.err.not_named_tensors": "{n} entries of the state_dict are not named tensors "
                                  "({listing}). A state_dict maps parameter names to tensors. "
                                  "{hint}",
    "ckpt.err.not_float_one": "Weights must be floating-point tensors; {listing} is not.",
    "ckpt.err.not_float_many": "Weights must be floating-point tensors; {listing} are not.",
    "ckpt.what.src_embed": "the source embedding table",
    "ckpt.what.tgt_embed": "the target embedding table",
    "ckpt.what.ffn": "the first FFN layer",
    "ckpt.what.pe": "the positional-encoding table",
    "ckpt.err.missing_tensor": "This is not a checkpoint of The Annotated Transformer's model: "
                               "it has no {key} ({what}). Expected names like "
                               "src_embed.0.lut.weight, "
                               "encoder.layers.0.self_attn.linears.0.weight, "
                               "generator.proj.weight.",
    "ckpt.err.wrong_ndim": "{key} ({what}) should have {ndim} dimensions, not {got}.",
    "ckpt.err.no_layers_encoder": "The checkpoint has no encoder layers (names like "
                                  "encoder.layers.0.self_attn...).",
    "ckpt.err.no_layers_decoder": "The checkpoint has no decoder layers (names like "
                                  "decoder.layers.0.self_attn...).",
    "ckpt.err.layer_counts": "The encoder has {enc} but the decoder has {dec}; this model has "
                             "the same number N of layers in both stacks (is a layer "
                             "missing?).",
    "ckpt.err.one_final_norm_encoder": "The encoder ends with a final LayerNorm (encoder.norm) "
                                       "but the decoder does not; pre-norm models have both, "
                                       "post-norm models neither.",
    "ckpt.err.one_final_norm_decoder": "The decoder ends with a final LayerNorm (decoder.norm) "
                                       "but the encoder does not; pre-norm models have both, "
                                       "post-norm models neither.",
    "ckpt.err.out_of_range": "The checkpoint has {name} = {value}; this app works with {name} "
                             "from {low} to {high}.",
    "ckpt.err.too_many_params": "This model would have {params}M parameters; the limit is "
                                "{limit}M so that one learner cannot use up the shared "
                                "server's memory.",
    "ckpt.err.h_differs": "This checkpoint was exported with h = {stored} heads, but h = "
                          "{given} was typed: clear the h field to use the file's h = {stored}.",
    "ckpt.err.h_needed": "Give the number of heads h: it cannot be read from the weights (W^Q "
                         "holds all heads in one d_model x d_model matrix). With d_model = "
                         "{d_model}, h can be {valid}; the Annotated Transformer uses 8.",
    "ckpt.err.h_not_divisor": "h = {h} does not work: h must divide d_model = {d_model} (each "
                              "head gets d_model / h dimensions). Valid h: {valid}.",
    "ckpt.err.h_out_of_range": "h = {h} is outside this app's range {low} to {high}. Valid h: "
                               "{valid}.",
    "ckpt.err.config_mismatch": "The file's config says {name} = {saved} but its weights have "
                                "{name} = {value}; the file is inconsistent. Export it again "
                                "from the app.",
    "ckpt.err.no_model": "These weights cannot make a model. {message}",
    "ckpt.err.shape_is": "{key} is {shape}, expected {expected}",
    "ckpt.err.missing": "missing {n} tensor(s): {listing}",
    "ckpt.err.unexpected": "{n} unexpected tensor(s): {listing}",
    "ckpt.err.wrong_shapes": "{n} tensor(s) of the wrong shape: {listing}",
    "ckpt.err.problem_sep": "; ",
    "ckpt.err.do_not_fit": "The weights do not fit the model they describe (N = {N}, d_model = "
                           "{d_model}, d_ff = {d_ff}, vocabularies {src}/{tgt}): {problems}.",
    "ckpt.err.swapped": " It has the size of the other vocabulary: did you swap the two lists?",
    "ckpt.err.list_size_shared": "The shared token list has {n} tokens but the checkpoint's "
                                 "shared vocabulary has {size} (one token per row of its "
                                 "embedding table, in id order).",
    "ckpt.err.list_size_source": "The source token list has {n} tokens but the checkpoint's "
                                 "source vocabulary has {size} (one token per row of its "
                                 "embedding table, in id order).",
    "ckpt.err.list_size_target": "The target token list has {n} tokens but the checkpoint's "
                                 "target vocabulary has {size} (one token per row of its "
                                 "embedding table, in id order).",
    "ckpt.err.stored_vocab": "The vocabulary stored in the file does not match its embedding "
                             "tables; upload a token list (one token per line) to name the "
                             "tokens.",
    "ckpt.err.load_memory": "Loading this checkpoint needs more memory than the server has.",
    "ckpt.err.unexpected_failure": "The checkpoint could not be loaded ({type}). Expected a "
                                   "state_dict of The Annotated Transformer's make_model. "
                                   "{hint}",
    "ckpt.err.not_finite": "Some weights are NaN or infinite ({listing}): the model was broken "
                           "when it was saved (training diverged?).",
    "ckpt.err.load_state_dict": "The weights do not fit the model their shapes describe; the "
                                "file may be damaged.",
    "ckpt.note.module_prefix": "Removed the 'module.' prefix that nn.DataParallel adds to "
                               "every name.",
    "ckpt.note.no_vocab": "No token list given: tokens are named tok0, tok1, ... by their id.",
    "ckpt.note.no_pe": "The file has no positional-encoding tables (they are fixed, not "
                       "learned); they were computed from the formula for {n} positions.",
    "ckpt.note.pe_extended": "The file's positional-encoding tables cover {saved} positions; "
                             "they are the fixed sinusoid formula, so they were extended to "
                             "{n} positions (the longest text this app reads).",
    "ckpt.note.assumed_options": "LayerNorm formula assumed to be the Annotated one (std + "
                                 "1e-6) and embeddings scaled by sqrt(d_model): a state_dict "
                                 "cannot tell.",
    "ckpt.note.post_norm": "No final LayerNorm in either stack: loaded as post-norm (the "
                           "paper's LayerNorm(x + Sublayer(x))).",
    "ckpt.note.tied": "Tied weights found: tie_weights = {tie}.",

    # ---- Train & decode page (pages/train.py, explorer/sections/train.py, decode.py) ----
    "train.title": "Train & decode",
    "train.intro": "Here you train a fresh Transformer on a toy task — copy, reverse or sort a "
                   "short sequence — or teach it to read dates in {languages} languages, then "
                   "watch it produce an answer one token at a time. Measured on an idle "
                   "two-core server (bench/results.md, sections 1b and 8b), copying takes a "
                   "median 1.4 s, reversing and sorting 3.9 and 3.8 s, reversing words 4.3 s "
                   "(the slowest seed of these 5.0 s), and dates 19 s (the slowest 23 s). A busy "
                   "server takes longer: while ten learners of a class trained different models "
                   "at once, copying took up to 10.8 s (section 12). The progress bar says how "
                   "long is left, and your own training's time is shown with its results.",
    "train.how_title": "How training works: teacher forcing, the loss, and why attention "
                       "changes",
    "train.how_text": "**Teacher forcing.** Positions are counted from 0. Each training example"
                      " is a source `x0 … x(n−1) </s>` and a target `<s> y0 … y(m−1) </s>`."
                      " `Batch` cuts the target in two, shifted by one: the decoder *input*"
                      " `tgt = <s> y0 … y(m−1)` and the *labels* `tgt_y = y0 … y(m−1) </s>`."
                      " Decoder position *i* reads `<s> y0 … y(i−1)` (the correct tokens before"
                      " label *i*) and must predict label *i*. All positions are trained at"
                      " once, in one pass; the subsequent mask stops a position from looking"
                      " at the answer it must predict. The model never sees its own mistakes"
                      " during training — only when it decodes on its own (section 3).\n\n"
                      "**Loss per token.** At every label position the generator gives log-probabi"
                      "lities over the vocabulary; the loss compares them with the label (with"
                      " label smoothing, with a slightly spread-out target). The losses of"
                      " all real label tokens in the batch are summed, `<pad>` positions are"
                      " skipped, and the sum is divided by the number of real tokens (`batch.ntoke"
                      "ns`), so the curve below is the average loss per target token, whatever"
                      " the sequence lengths. Without smoothing it is the cross-entropy: for"
                      " the task chosen below, guessing evenly among its {vocab} tokens gives"
                      " ln {vocab} ≈ {ln_vocab}, and certainty gives 0.\n\n**Why attention"
                      " changes.** A fresh model's weight matrices are random (Xavier initialisati"
                      "on), so its queries and keys are random projections and its attention"
                      " weights are a nearly uniform, patternless smear. Training shapes them"
                      " to the task: to copy, output position *i* needs source token *i*, so"
                      " the cross-attention becomes a **diagonal**; to reverse, it needs source"
                      " token *n*−1−*i*, an **anti-diagonal**; to sort, each step looks for"
                      " the next-smallest symbol wherever it sits. Section 4 shows the same"
                      " input through the untrained and the trained model side by side.\n"
                      "\n**How this copy task differs from The Annotated Transformer's.** Its"
                      " example draws sequences of exactly 10 tokens from a vocabulary of 11"
                      " (V = 11; id 0 is padding but never used), sets the first token of every"
                      " sequence to 1, which then serves as the start symbol, and feeds the"
                      " same sequence as source and target: no `</s>`, no padding, one length."
                      " Here the lengths vary, every source ends with `</s>`, every target"
                      " starts with `<s>`, shorter sequences are padded with `<pad>` (which"
                      " the masks and the loss skip), and the symbols are the digits 0–9 (or"
                      " your words).",
    "train.task_header": "1. Pick a task",
    "train.task": "Task",
    "train.task_copy": "copy",
    "train.task_reverse": "reverse",
    "train.task_sort": "sort",
    "train.symbols": "Symbols",
    "train.symbols_digits": "digits 0–9",
    "train.symbols_words": "the words of your sentence",
    "train.rule_copy": "the same sequence",
    "train.rule_reverse": "the sequence backwards",
    "train.rule_sort": "the symbols in order",
    "train.rule_sort_words": "the symbols in order (words in Unicode code-point order: "
                             "capitals before lower case, Chinese characters by their code "
                             "points)",
    "train.task_text": "The source is 1 to {max_len} random symbols; the answer is {rule}. "
                       "Vocabulary: {vocab} tokens = 4 special tokens + {symbols} symbols:",
    "train.tf_expander": "Teacher forcing for one example of this task",
    "train.tf_caption": "Each row is one decoder position: it reads the input token (and "
                        "everything above it) and is trained to give high probability to the "
                        "label on its row.",
    "train.col_position": "position",
    "train.col_input": "decoder input (tgt)",
    "train.col_label": "label to predict (tgt_y)",
    "train.train_header": "2. Train",
    "train.model": "Model to train",
    # What a learner waits, measured by bench/train_wait.py (`.venv/bin/python -m
    # bench.train_wait`): fast recipe (batch 128, lr 1e-2), copy on digits, "Stop when
    # learned" on, seeds 0-4, training in the hub's worker process (up to two threads), on
    # a 2-core machine (bench/results.md, four runs): training and
    # checks, median 1.3-1.6 s (worst 1.5-1.8 s); from the click to the results, median
    # 1.3-1.5 s for a browser on another machine (a protocol client), 2.6-3.1 s with
    # headless Chromium drawing on the same two cores.
    "train.model_recipe": "fast recipe: N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, no dropout "
                          "(learns copy in a median 1.4 s on an idle two-core server; the "
                          "slowest seed 1.8 s)",
    "train.model_sidebar": "N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, dropout {dropout} "
                           "(slower; see the note below)",
    "train.model_help": "The fast recipe is small on purpose: one layer and two heads are all "
                        "that copy, reverse and sort need, and it trains in seconds. The "
                        "sidebar's teaching options (norm placement, LayerNorm, scaling, "
                        "tying) and seed apply to both.",
    "train.steps": "Training steps",
    "train.steps_help": "Optimiser steps, one random batch each.",
    "train.batch": "Batch size (sequences per step)",
    "train.smoothing": "Label smoothing ε",
    "train.smoothing_help": "0 = plain cross-entropy; the paper uses 0.1. See the plot at the "
                            "bottom.",
    "train.schedule": "Learning-rate schedule",
    "train.schedule_constant": "constant",
    "train.schedule_warmup": "linear warm-up, then constant",
    "train.schedule_noam": "Noam (warm-up, then 1/√step)",
    "train.lr": "Learning rate",
    "train.warmup": "Warm-up steps",
    "train.factor": "Noam factor",
    "train.early": "Stop when learned",
    # (6) two different checks, named as such
    "train.early_help": "After any step whose own batch (fresh random sequences, scored before "
                        "the weights change) came out nearly all right, a stop check looks at "
                        "{n} other fresh sequences; training stops as soon as all {n} are "
                        "right. The check is one teacher-forced pass, yet its verdict is "
                        "greedy decoding's: under the subsequent mask, a sequence in which "
                        "every next token is the model's top choice is exactly the one greedy "
                        "decoding writes. With dropout the batch is scored with units dropped, "
                        "so the check runs every {every} steps instead. The accuracy shown "
                        "after training comes from other sequences.",
    "train.adam_caption": "Adam with β = (0.9, 0.98), ε = 1e-9 as in the paper. The default is "
                          "the app's fast recipe: {lr} after a {warmup}-step warm-up, batch "
                          "{batch}, no label smoothing — over 100 times faster here than The "
                          "Annotated Transformer's copy recipe (N=2, d_model=512, Noam warm-up "
                          "400), which needs minutes on two CPU cores. Weights and batches "
                          "come from the sidebar's seed, and so do the units dropout drops: "
                          "the same settings repeat a run exactly, step for step.",
    "train.sidebar_caption": "The sidebar's model is trained with the same settings. The small "
                             "preset (N=2, d_model=128) takes a minute or more to learn copy "
                             "here and may reach the {seconds}-second limit first; the paper "
                             "base model is too big to train on a shared CPU.",
    "train.too_big": "**This model is too big to train here.** {reason}",
    "train.train": "Train",
    "train.train_help": "Build a fresh model from the seed and train it.",
    "train.stop": "Stop",
    "train.stop_help": "Stop training; the model keeps what it has learned so far. Clicking "
                       "elsewhere, visiting other pages or switching language does not stop it; a "
                       "new training, its time limit, or closing or reloading the tab does.",
    # (3) a click during training: the page stops the training thread and waits for it
    "train.evaluating": "Stopping the training and evaluating the model…",
    "train.starting": "Starting…",
    "train.progress": "step {step} / {steps} · loss {loss} · token accuracy {acc} · {seconds} s · "
                      "about {left} s left",
    "train.training": "Training… (click Stop to end early)",
    "train.queued": "Waiting for a free core: this server trains {slots} at a time (one per"
                    " core), in order of arrival. {ahead} ahead of you, about {seconds} s."
                    " Time in the queue does not count towards the time limit.",
    "train.shared": "{n} other learners asked for this same training (same task, model,"
                    " recipe and seed): it runs once, and each of you gets a copy of the"
                    " trained weights to change as you like.",
    "train.failed": "The training failed: {error}. The model keeps what it learned before that.",
    "train.left_queue": "You left the queue before your training started: nothing was trained."
                        " Press Train to queue again.",
    "train.queued_next": "Waiting for a free core: this server trains {slots} at a time (one"
                         " per core), in order of arrival. You are next: about {seconds} s."
                         " Time in the queue does not count towards the time limit.",
    "train.shared_one": "1 other learner asked for this same training (same task, model,"
                        " recipe and seed): it runs once, and each of you gets a copy of the"
                        " trained weights to change as you like.",
    "train.reason.time_limit": "the time limit of {seconds} s",
    "train.reason.stop_request": "a stop request",
    "train.reason.click": "a click during training",
    "train.reason.stop_button": "the Stop button",
    "train.reason.tab_closed": "this page lost its connection to the server: a closed or"
    " reloaded tab, or a network drop",
    "train.other_settings": "Your trained model was for other settings ({describe}). Press "
                            "Train to train one for the current task and sidebar settings; "
                            "until then the untrained model is used below.",
    "train.describe": "{task} on {symbols}, N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, "
                      "dropout={dropout}, seed={seed}",
    "train.describe_digits": "digits",
    "train.describe_words": "{n} words",
    "train.metric_accuracy": "Exact-sequence accuracy",
    "train.metric_accuracy_help": "The held-out evaluation: greedy decoding of {n} "
                                  "{sequences}; each stop check looks at {check_n} fresh "
                                  "training sequences instead. {split} The share whose whole "
                                  "answer, up to </s>, is right.",
    "train.metric_loss": "Final loss per token",
    "train.metric_steps": "Steps",
    "train.metric_time": "Training time",
    "train.learned": "Learned after {step} steps: the stop check at step {step} looked at {n} "
                     "fresh sequences and got every one right, so training stopped there.",
    "train.stopped": "Training stopped at step {step} of {steps} ({reason}). The model keeps "
                     "what it learned by then.",
    "train.lr_constant": "constant lr {lr}",
    "train.lr_warmup": "lr {lr} after a {warmup}-step linear warm-up",
    "train.lr_noam": "Noam, warm-up {warmup}, factor {factor}",
    "train.trained_caption": "Trained with batch {batch}, {lr_text}, label smoothing "
                             "{smoothing}. Token accuracy is measured on the training batch "
                             "with teacher forcing; exact-sequence accuracy lets the model run "
                             "on its own, so one early mistake spoils the whole answer.",
    "train.download": "Download the trained model (.pt checkpoint)",
    "train.download_help": "A torch.save of {keys}: load it with torch.load(path, "
                           "weights_only=True), or upload it in the sidebar ({panel}) to look "
                           "inside it on every page.",
    "train.not_trained": "Not trained yet. Training stops by itself after {seconds} s.",
    "train.decode_header": "3. Decode step by step",
    "train.decode_text": "Greedy decoding: the encoder reads the source once; the decoder "
                         "starts from `<s>`, predicts a probability for every token, appends "
                         "the most likely one and runs again on the longer prefix, until it "
                         "produces `</s>`. Unlike training, it now reads its own previous "
                         "outputs.",
    "train.decode_with": "Decode with",
    "train.which_trained": "trained",
    "train.which_untrained": "untrained",
    "train.which_shipped": "the shipped date translator",
    "train.which_imported": "the imported checkpoint (sidebar)",
    # beam search beside greedy decoding
    "beam.header": "Beam search beside greedy decoding",
    "beam.text": "Greedy decoding commits to the most probable token at every step and can never "
                 "go back. **Beam search** keeps the `k` most probable partial answers instead "
                 "(the *beam*): at every step each of them is extended by every token of the "
                 "vocabulary, and only the best candidates stay. A candidate that produces "
                 "`</s>` is finished and leaves the beam, and keeps its place: once `k` answers "
                 "are finished the search ends (this app's beam shrinks as answers finish). "
                 "With `k = 1` it is greedy decoding.",
    "beam.size": "Beam size k",
    "beam.size_help": "How many partial answers stay in the beam at each step (1 = greedy "
                      "decoding; the paper uses 4).",
    "beam.alpha": "Length penalty α",
    "beam.alpha_help": "0 ranks the finished answers by log P alone; larger values favour longer "
                       "answers (the paper uses 0.6).",
    "beam.formula_text": "Every token multiplies P(Y) by a probability below 1, so log P can only "
                         "fall as an answer grows, and plain log P favours short answers. The "
                         "final ranking therefore divides by a length penalty lp(Y):",
    "beam.formula_caption": "|Y| counts the tokens after `<s>`, `</s>` included. The paper "
                            "(section 6.1) decodes with beam size 4 and α = 0.6, with the length "
                            "penalty of Wu et al. (2016), Google's neural machine translation "
                            "system. All candidates of one step have the same length, so the "
                            "penalty never changes which ones stay in the beam: it only ranks "
                            "finished answers of different lengths.",
    "beam.bad_size": "The beam size must be a whole number from {low} to {high}: the value given "
                     "was refused and {default} is used.",
    "beam.bad_alpha": "α must be a number from {low} to {high}: the value given was refused and "
                      "{default} is used.",
    "beam.running": "Running beam search…",
    "beam.fig_title": "The beam (k = {k}, α = {alpha}): every candidate, step by step",
    "beam.fig_step_axis": "step (tokens after <s>)",
    "beam.fig_rank_axis": "rank in its step",
    "beam.fig_kept": "kept in the beam",
    "beam.fig_finished": "finished (</s>)",
    "beam.fig_pruned": "pruned",
    "beam.fig_best_path": "the best final answer",
    "beam.fig_score": "score",
    "beam.tree_caption": "Each column is one step. A node is a candidate, labelled with its last "
                         "token and joined to the prefix it extends: blue ones stay in the beam, "
                         "green squares are finished with `</s>`, grey ones are the best pruned "
                         "candidates of the step (up to {shown}), drawn to show what was cut. The "
                         "red path leads to the best final answer. Hover over a node for its "
                         "whole sequence, its log P and its score.",
    "beam.ranking": "**The final ranking**: the finished answers (and, once the length limit is "
                    "reached, the unfinished ones), best score first.",
    "beam.col_rank": "rank",
    "beam.col_tokens": "answer",
    "beam.col_log_prob": "log P(Y)",
    "beam.col_length": "|Y|",
    "beam.col_lp": "lp(Y)",
    "beam.col_score": "score",
    "beam.greedy_answer": "Greedy decoding's answer:",
    "beam.beam_answer": "Beam search's best answer:",
    "beam.agree": "Beam search (k = {k}, α = {alpha}) and greedy decoding agree: the same answer, "
                  "with log P = {log_prob} and score {score}.",
    "beam.differ": "Beam search (k = {k}, α = {alpha}) and greedy decoding differ, first at step "
                   "{step}. Greedy decoding's answer has log P = {greedy_log_prob} and score "
                   "{greedy_score}; the beam's best has log P = {beam_log_prob} and score "
                   "{beam_score}.",
    "beam.why_more_probable": "The beam kept a candidate that was not the most probable at its "
                              "step, and it led to the more probable answer: greedy decoding, "
                              "having dropped it, could not go back to it.",
    "beam.why_length": "The beam's answer is less probable as a whole (a lower log P), but it is "
                       "longer, and the length penalty (α = {alpha}) ranks it higher; with α = 0 "
                       "the ranking follows log P alone.",
    "beam.why_pruned": "Here beam search does worse than greedy decoding: greedy's answer has the "
                       "higher score, but at some step its prefix was pruned by candidates that "
                       "looked better then. Beam search does not try every answer; it bets that "
                       "the best one stays among the k best prefixes.",
    "train.imported_input": "The sidebar's text, as the imported checkpoint reads it (its own "
                            "vocabulary; words it does not know are `<unk>`):",
    "train.imported_caption": "The app does not know what this checkpoint was trained to do, so "
                              "there is no right answer to compare with: read the answer and the "
                              "attention below as what the model does with this text.",
    "train.imported_caption_task": "Its file says it was trained on the “{task}” task, so the "
                                   "right answer comes from that task's rule.",
    "train.imported_caption_outside": "Its file says it was trained on the “{task}” task, but this"
                                      " text is not an input of that task, so there is no right "
                                      "answer to compare with.",
    "train.imported_no_text": "Type a text in the sidebar: the imported checkpoint decodes the "
                              "sidebar's text.",
    "train.imported_no_before_after": "This section compares the model trained on this page with "
                                      "its untrained start; choose “trained” or “untrained” in "
                                      "section 3 to see it.",
    "train.untrained_caption": "The untrained model (train it above to see the difference): "
                               "its answers are garbage — that is the point.",
    "train.input_sentence": "Input: your sentence",
    # (6) the learner's sentence against what the words task trains on
    "train.first_words": "Your sentence has {got} words, but only the first {n} are decoded: "
                         "the words task trains on sequences of 1 to {n} words (your "
                         "sentence's length, at most {cap}, so that training takes seconds). "
                         "The model has never seen a longer sequence, and its positional "
                         "encoding covers only {positions} positions (with <s> and </s>).",
    "train.digits_input": "Digits to decode (separated by spaces)",
    "train.building_untrained": "Building the untrained model…",
    "train.expected": "Expected answer",
    "train.answer_right": "Model's answer: :green[**right**]",
    "train.answer_wrong": "Model's answer: :red[**wrong**]",
    "train.step": "Step",
    "train.step_help": "Step k reads <s> and the k−1 tokens produced so far.",
    "train.step_reads": "**Step {k}.** The decoder reads {n} tokens:",
    "train.picks": "and picks the most likely next token:",
    "train.layer": "Layer",
    "train.heads": "Heads",
    "train.self_title": "decoder self-attention, layer {layer}, {which} ({q}×{k})",
    "train.cross_title": "cross-attention, layer {layer}, {which} ({q}×{k})",
    "train.q_decoder": "query: decoder input",
    "train.q_source": "query: source",
    "train.k_decoder": "key: decoder input",
    "train.k_source": "key: source",
    "train.no_cache_caption": "There is no cache of earlier steps: every step runs the decoder "
                              "on the whole prefix again, so the rows above the last one "
                              "repeat the previous step's. The last row is the position that "
                              "predicts the next token.",
    "train.before_after_header": "4. Attention before and after training",
    "train.attention": "Attention",
    "train.kind_cross": "cross-attention (decoder → source)",
    "train.kind_enc": "encoder self-attention",
    "train.before_after_caption": "Last layer, mean of the heads, for the input above. For "
                                  "cross-attention both models are fed the correct answer "
                                  "(teacher forcing), so the rows are the same decoder input "
                                  "`<s> y1 … ym` for both.",
    "train.untrained_title": "untrained (seed {seed})",
    "train.trained_title": "trained ({steps} steps)",
    "train.pattern_copy": "a diagonal",
    "train.pattern_reverse": "an anti-diagonal",
    "train.pattern_sort": "each row finding the next symbol in order",
    "train.pattern_caption": "For {task}, look for {pattern} in the cross-attention. Encoder "
                             "self-attention need not show a clean pattern: the encoder only "
                             "has to keep each token's identity and position.",
    "train.train_first": "Train the model (section 2) to see the trained attention here.",
    "train.task_dates": "dates → ISO",
    "train.symbols_dates": "The date task always reads characters: one token per character, spaces"
                           " left out.",
    "train.task_text_dates": "The source is a date written in one of {languages} languages "
                             "({locales} locales: a language as written in a country or script) "
                             "and {styles} styles (rendered by Babel from the Unicode CLDR; lower "
                             "case too), years {first}–{last}: {min_len} to {max_len} characters, "
                             "spaces not counted. The answer is the same date as YYYY-MM-DD. "
                             "Vocabulary: {vocab} tokens = 4 special tokens + {symbols} "
                             "characters. About one day in twenty is held out of training; the "
                             "accuracy after training is measured on those days. Six random "
                             "training examples:",
    "train.col_date": "date as written",
    "train.col_iso": "answer",
    "train.model_recipe_dates": "date recipe: N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, no "
                                "dropout (narrower than the shipped date translator's d_model = "
                                "{shipped}, so that it learns faster)",
    "train.early_help_dates": "After any step whose own batch of training dates (scored before "
                              "the weights change) came out nearly all right, a stop check looks "
                              "at {n} other fresh training dates; training stops as soon as at "
                              "least {share} of the {n} are right (getting every date right takes "
                              "minutes more: the shipped translator trained for {minutes} "
                              "minutes). The check is one teacher-forced pass, yet its verdict is "
                              "greedy decoding's: under the subsequent mask, a date in which "
                              "every next character is the model's top choice is exactly the one "
                              "greedy decoding writes. With dropout the check runs every {every} "
                              "steps instead. The accuracy shown after training comes from "
                              "held-out days.",
    "train.adam_caption_dates": "Adam with β = (0.9, 0.98), ε = 1e-9 as in the paper. The date "
                                "recipe: {lr} after a {warmup}-step warm-up, batch {batch}, no "
                                "label smoothing. The shipped translator was trained longer "
                                "(tools/train_dates.py: Noam schedule, then a low constant rate "
                                "until every language and style was right on every day of the "
                                "month in a check on training dates; batch {shipped_batch}, "
                                "{shipped_steps} steps). {shipped_checked}",
    "train.metric_accuracy_help_dates": "The held-out evaluation: greedy decoding of {n} dates "
                                        "on days never used for training (nor for the stop "
                                        "checks, each of which looks at {check_n} training "
                                        "dates). The share whose whole answer, up to </s>, is "
                                        "right.",
    "train.held_out_missed_dates": "The “{metric}” beside it is a second, separate test on "
                                   "held-out days: {right} of {total} dates right ({acc}); {wrong}"
                                   " wrong.",
    "train.learned_dates": "Stopped after {step} steps: the stop check at step {step} looked "
                           "at {n} fresh training dates and got at least {share} of them right.",
    "train.describe_dates": "dates",
    "train.input.date_too_long": "The model has positions for dates of at most {n} characters "
                                 "(spaces are left out); this text is longer.",
    "train.date_input": "A date to translate",
    "train.date_input_help": "Type a date as one of the task's languages writes it, e.g. “Montag,"
                             " 23. November 2026”, “2026年11月23日星期一” or “Nov 23, 2026”. Anyt"
                             "hing else is read too: a model always answers.",
    "train.date_unknown": "{n} characters of this text never occur in the task's dates: the model "
                          "reads each as <unk>.",
    "train.date_no_expected": "The app cannot tell the right answer: this text is not a date "
                              "written exactly as the task writes them.",
    "train.answer_plain": "Model's answer",
    "train.date_inside": "This text is a date written exactly as the task writes them, so its "
                         "answer is known: the app rendered the date in every language and style "
                         "of the task and found this text.",
    "train.date_outside": "This text is outside what the model was trained on (free text, another "
                          "style, a date outside 1900–2099 or one that does not exist): the model "
                          "still answers, but nothing says its answer means anything.",
    "train.pattern_dates": "each digit of the answer looking at its field in the date: year digits"
                           " at the year, month digits at the month (a name in any language), day "
                           "digits at the day",
    "train.film_ideal_dates": "each digit of the answer looks at its field: year digits at the "
                              "year, month digits at the month, day digits at the day (the dashes "
                              "and </s> are not scored)",
    "train.film_header": "5. The attention film: watch attention form",
    "train.film_intro": "While the model trained, the app recorded the attention of one fixed "
                        "input (below) at moments spread over the run: every layer and head, "
                        "with dropout off and the correct answer as the decoder's input "
                        "(teacher forcing: <s>, then the answer). Press ▶ to play it from the "
                        "untrained model, or drag the slider to any step.",
    "train.film_kind": "Attention to watch",
    "train.film_title": "{kind}: every layer and head, as it trained",
    "train.film_caption": "{frames} frames, {kb} KB: step 0 (untrained), then one every "
                          "{every} steps, and the last step ({last}). A film keeps at most "
                          "{cap} frames (and the last step): when it is full it drops every "
                          "other frame and records half as often.",
    "train.film_closeness_title": "Cross-attention heads: how close to the ideal pattern",
    "train.film_ideal_copy": "the diagonal: each output looks at the same position of the input",
    "train.film_ideal_reverse": "the anti-diagonal: each output looks at the mirrored position",
    "train.film_ideal_sort": "each output looks at where the symbol it writes sits in the input",
    "train.film_best": "At the last step, the head closest to the ideal pattern is layer {i}, "
                       "head {j}: {share} of its weight is on the ideal positions.",
    "train.film_reached": "It first passed {level} at step {step}.",
    "train.film_not_reached": "It did not reach {level} at any recorded step.",
    "train.film_closeness_caption": "The ideal pattern: {pattern}. Closeness is the attention "
                                    "weight a head puts on those source positions, averaged "
                                    "over the output positions (the row that writes </s> is "
                                    "left out). Attention spread evenly over the input scores "
                                    "{baseline} (dashed line). Solid lines: the last layer; "
                                    "dotted: earlier layers. A model can be right without any "
                                    "one head near 100%: layers and heads share the work.",
    "train.schedule_header": "6. The learning-rate schedule and label smoothing",
    "train.noam_expander": "The Noam learning-rate schedule",
    "train.noam_text": "The paper (§5.3) raises the learning rate linearly for the first "
                       "warmup_steps = 4000 steps, then lowers it as 1/√step: `lr = d_model^-0.5 "
                       "· min(step^-0.5, step · warmup^-1.5)`. The Annotated Transformer's "
                       "`rate()` multiplies this by a `factor` of its own: its copy example runs "
                       "Adam with lr 0.5 × rate(factor 1, warmup 400), an effective factor of "
                       "0.5, and its Multi30k model uses a base lr of 1.0 with warmup 3000. The "
                       "peak is at step = warmup, and wider models (larger d_model) get a smaller "
                       "rate. The paper gives no reason for the warm-up; a common explanation "
                       "(this app's, not the paper's) is that Adam's first updates rest on poor "
                       "estimates of the gradients' statistics, so they are kept small. Dotted: "
                       "The Annotated Transformer's example curves.",
    "train.smoothing_expander": "Label smoothing",
    "train.smoothing_text": "Instead of training towards a one-hot target (all probability on "
                            "the label), label smoothing keeps 1 − ε on the label and spreads "
                            "ε over the other tokens, except `<pad>`, which always gets 0. "
                            "This is The Annotated Transformer's variant: each of the V − 2 "
                            "other tokens gets ε / (V − 2). Szegedy et al. (2016), whom the "
                            "paper cites, spread ε over all V classes, the label included. "
                            "The model is discouraged from becoming certain; the paper (ε = "
                            "0.1) reports worse perplexity but better BLEU. The loss is the "
                            "KL divergence to this distribution: it is 0 only when the model "
                            "predicts exactly that smoothed distribution, so a fully "
                            "confident (one-hot) prediction now costs loss. A row whose label "
                            "is `<pad>` is all zeros: padding adds no loss.",
    "train.at_smoothing_text": "**The Annotated Transformer's two examples, computed by this "
                               "app's `LabelSmoothing`.** First, a vocabulary of 5 tokens with "
                               "padding at id 0, ε = 0.4, and the targets [2, 1, 0, 3, 3]. Then "
                               "one target, the label 1, predicted ever more confidently: the "
                               "probabilities [0, x/d, 1/d, 1/d, 1/d] with d = x + 3, for x = 1 … "
                               "99 (The Annotated Transformer's `range(1, 100)`), scored with ε = "
                               "0.1.",
    "train.at_smoothing_caption": "{label} on the label and {other} = {eps}/{k} on each of the {k}"
                                  " tokens that are neither the label nor padding; the padding "
                                  "column is 0, and the row whose target is the padding id 0 is "
                                  "all 0 (it adds no loss).",
    "train.confidence_caption": "The loss is lowest at x = {x}, where the label gets probability "
                                "{p}: exactly the smoothed target's 1 − ε. A more confident "
                                "prediction is penalised: at x = {top} the loss has climbed back "
                                "from {low} to {last}. Without smoothing it would keep falling "
                                "towards 0.",
    "train.smoothing_caption": "Vocabulary of {n} tokens: ε/(size − 2) = {share} goes to every "
                               "token that is neither the label nor <pad>.",
    "train.smooth_row": "label {token}",
    "train.still_stopping": "The training has not stopped yet after {seconds} s (the server "
                            "is busy). Its results will be shown once it has: click any "
                            "control in a moment.",
    "train.held_out_missed": "The “{metric}” beside it is a second, separate test, the held-out "
                             "evaluation: {right} of {total} other sequences right ({acc}). "
                             "Passing one check does not mean every sequence is right; the "
                             "{wrong} it got wrong are of lengths {lengths}.",
    "train.dropped_words": "{k} words of your sentence are left out: they are not among the "
                           "task's symbols (the first {limit} different words).",
    "train.input_inside": "This input is like the training sequences: its length, {length}, is "
                          "one training draws ({min_len} to {max_len}), and every symbol in it is "
                          "the task's.",
    "train.input_outside": "This input is not like the training sequences (lengths {min_len} to "
                           "{max_len}, only the task's symbols): its length is {length}{unknown}. "
                           "A wrong answer here says little about what the model learned.",
    "train.wrong_inside": "The input is inside what the model was trained on, so this is a real "
                          "mistake: in the held-out evaluation it got {right} of {total} "
                          "sequences of length {length} right. Train longer (turn off \"Stop when "
                          "learned\" or raise the steps) to make such mistakes rarer.",
    "train.wrong_inside_none": "The input is inside what the model was trained on, so this is a "
                               "real mistake; the held-out evaluation drew no sequence of length "
                               "{length}. Train longer (turn off \"Stop when learned\" or raise "
                               "the steps) to make such mistakes rarer.",
    # validation of the training widgets and the decoder input (explorer/training/: settings, task)
    "train.field.task": "task",
    "train.field.symbols": "symbols",
    "train.field.schedule": "schedule",
    "train.field.model": "model",
    "train.field.steps": "steps",
    "train.field.warmup": "warmup",
    "train.field.lr": "lr",
    "train.field.factor": "factor",
    "train.field.smoothing": "smoothing",
    "train.err.choice": "The {name} must be one of {allowed}; using {default}.",
    "train.err.whole": "{name} must be a whole number from {low} to {high}; using {default}.",
    "train.err.number": "{name} must be from {low} to {high}; using {default}.",
    "train.err.batch": "The batch size must be one of {allowed}; using {default}.",
    "train.err.early_stop": "The early-stop switch must be on or off; using on.",
    "train.note.too_few_words": "Your sentence has fewer than 2 different words, which is not "
                                "enough symbols for a task, so the digits are used instead.",
    "train.note.no_words": "Your sentence could not be split into words, so the digits are "
                           "used instead.",
    "train.note.too_many_words": "Your sentence has {n} different words; the task uses the "
                                 "first {limit} so that it stays learnable in a few hundred "
                                 "steps.",
    "train.input.not_text": "The input must be text.",
    "train.input.too_long": "The input is too long: at most {n} symbols.",
    "train.input.empty": "Type at least one symbol, for example 3 1 4 1 5.",
    "train.input.bad_digits": "Only the digits 0 to 9, separated by spaces, can be used; symbols "
                              "number {which} (counting from 1) are not digits.",
    "train.input.bad_words": "Only the task's symbols, separated by spaces, can be used; symbols "
                             "number {which} (counting from 1) are not among them.",
    "train.input.too_many": "The model was trained on sequences of at most {n} symbols; this "
                            "input has {got}.",
    "sidebar.layer_norm_help": "Two LayerNorm formulas. **std + 1e-6** (The Annotated "
                               "Transformer): (x − mean) / (std + 1e-6), with the unbiased std "
                               "(dividing by d_model − 1) and eps added to the std, outside the "
                               "square root. **nn.LayerNorm** (PyTorch): (x − mean) / √(var + "
                               "1e-5), with the biased variance (dividing by d_model) and eps "
                               "inside the square root. Both then scale and shift by learned "
                               "vectors. The biased std is smaller by √((d_model − 1)/d_model), "
                               "so nn.LayerNorm's outputs are larger by about 1/(2·d_model): 1.6% "
                               "at d_model = 32, 0.1% at 512. The Model page computes it on your "
                               "sentence.",
    "sidebar.tie_weights_help": "The paper (§3.4) shares one weight matrix between the two "
                                "embedding layers and the linear layer before the softmax "
                                "(source and target then share one vocabulary). The Annotated "
                                "Transformer's `make_model` does not tie: its tying code sits "
                                "in an `if False:` block. The default here is none, as there. A "
                                "walk-through says the paper uses separate embeddings for the "
                                "encoder and the decoder: it shares them.",

    # ---- model source (explorer/app/sources.py, sidebar) ----
    "source.label": "Model to look at",
    "source.help": "Every page shows your text going through this model. Untrained: random "
                   "weights from the seed, sized by the settings below. The date translator: "
                   "a model that ships with the app, trained to turn a date written in {languages} "
                   "languages into YYYY-MM-DD (type a date as the source sentence). Your "
                   "trained model: the last one trained on the Train & decode page in this "
                   "session. Imported: a checkpoint you uploaded below.",
    "source.untrained": "Untrained (random weights)",
    "source.dates": "Trained: date translator",
    "source.yours": "Your trained model",
    "source.imported": "Imported checkpoint",
    "source.dates_missing": "The date translator's file (models/dates.pt) is missing from this "
                            "installation, so the untrained model is shown.",
    "source.yours_missing": "You have not trained a model in this session yet: train one on "
                            "the Train & decode page. The untrained model is shown meanwhile.",
    "source.yours_running": "Your model is still training on the Train & decode page; it is "
                            "shown here once training has stopped. The untrained model is "
                            "shown meanwhile.",
    "source.imported_missing": "No checkpoint is imported yet: load one under \"Explore your "
                               "own checkpoint\" below. The untrained model is shown meanwhile.",
    "source.tokens_fixed": "This model was trained on text read this way, so it reads yours "
                           "the same way.",
    "source.examples": "Try a date (the same day in other languages)",
    "source.target_placeholder": "empty: the model's own answer",
    "source.train_own": "The sidebar shows the model \"{name}\". Training here always starts "
                        "from a fresh, untrained model: the fast recipe's, or \"the sidebar's "
                        "model\", which means your own settings (choose \"Untrained\" in the "
                        "sidebar to see and change them).",
    "source.fixed": "The model \"{name}\" fixes the size and options (shown here, read-only). "
                    "Choose \"Untrained\" above to get your own settings back.",
    "source.params": "Parameters ({name})",
    "source.dates_weights": "**A trained model**: the date translator that ships with the app "
                            "({steps} training steps). {checked} Type a date in any of its "
                            "languages as the source sentence, e.g. `Montag, 23. November 2026` "
                            "or `2026年11月23日`.",
    "dates.cells": "Checked on {n} dates it never saw, cell by cell ({cells} cells: each "
                   "language and style on each day of the month, and in each month), {result}.",
    "dates.worst_cell": "its weakest cell, {cell}, is {accuracy} exact ({right} of {total})",
    "dates.all_cells": "every cell is 100% exact, down to the one measured on the fewest dates, "
                       "{cell}: {right} of {total}",
    "dates.average": "{accuracy} of {n} dates it never saw are exact (an average: a language "
                     "and style that fails on one day of the month barely moves it).",
    "dates.cell_day": "{language} written like `{example}`, day {value} of the month",
    "dates.cell_month": "{language} written like `{example}`, month {value}",
    "source.dates_wrong": "The model got this one wrong: the text is a date written exactly as "
                          "it was trained to read (the app writes this date the same way in one "
                          "of the task's languages and styles), so the right answer is "
                          "**{expected}**. The attention below is the model's own, mistake "
                          "included.",
    "source.yours_weights": "**Your trained model** ({task}, {steps} steps): the attention "
                            "it learned on the Train & decode page.",
    "source.answer": "The target box is blank, so the decoder reads the model's own answer: "
                     "**{answer}**. Cross-attention then shows where each output token looked "
                     "while it was produced.",
    "source.no_answer": "The target box is blank and the model gave no answer here, so the "
                        "decoder reads only `<s>`.",
    "source.unknown": "{n} of your tokens are not in this model's vocabulary and read as "
                      "`<unk>` (see the token table in the sidebar).",
    "source.unknown_tokens": "**{name}** does not know {n} of the {total} tokens of your "
                             "sentence (below): it reads each as `<unk>`, so what it shows "
                             "for them means little.",
    "source.use_known_example": "Use an example the model knows",
    "source.use_known_example_help": "Its task's own input becomes the sentence (the target "
                                     "box is left blank).",
    "source.dates_outside": "This does not look like a date the model was trained on (a date from "
                            "1900 to 2099 written in one of the task's languages and styles). It "
                            "still answers, because a model always does; treat the answer and the "
                            "attention as a model guessing outside its data.",
    "source.alignment": "Cross-attention, measured on {n} dates the model never saw: in "
                        "decoder layer {layer} (heads averaged), **{year}** of year digits, "
                        "**{day}** of day digits and **{month}** of month digits ({month_word} "
                        "where the month is a word, like \"November\" or \"nov.\") look "
                        "hardest at the part of the source they come from. Choose "
                        "\"Cross-attention\" below and layer {layer} to see it for your date.",
    "source.dates_scope": "Trained on: English (US, UK), Chinese (simplified, traditional), "
                          "German, French, Spanish, Japanese and Korean; full, long, medium and "
                          "abbreviated styles, lower case too; years 1900–2099. Left out: "
                          "two-digit years (is 23.11.26 in 1926 or 2026?) and all-number dates "
                          "whose day/month order differs between countries (03/04/2026).",

    # ---- the Model page's first look at trained attention (explorer/sections/preview.py) ----
    "preview.title": "**First, a trained model.** The model on this page is built from the "
                     "sidebar and has random weights. The app also ships a trained one: a "
                     "date translator that turns a date in {languages} languages into "
                     "YYYY-MM-DD. "
                     "Edit the date and watch where each output digit looks.",
    "preview.input": "A date, in any of English, Chinese, German, French, Spanish, Japanese "
                     "or Korean",
    "preview.unreadable": "Type a date (at most {n} characters) to see the translator's "
                          "answer.",
    "preview.answer": "Its answer: **{answer}**. Each row below is one step of the decoder: "
                      "the row of a token is where the next one is chosen (the `<s>` row "
                      "writes the first digit). Dark cells are the characters of your date "
                      "that step attended to most (decoder layer {layer}, cross-attention, "
                      "heads averaged).",
    "preview.figure_title": "Cross-attention of the date translator, decoder layer {layer}",
    "preview.everywhere": "Look at this model on every page",
    # ---- 7. Break a part (explorer/sections/experiment.py) ----
    "exp.header": "7. Break a part and train it beside the correct model",
    "exp.intro": "Each switch below changes exactly one thing: a field of `TransformerConfig` "
                 "(you can see it in the module tree and the code on the Model page), or the "
                 "label smoothing of the training. **Train both** trains the correct model and "
                 "the broken one from the same initial weights, on the same task and batches and "
                 "for the same number of steps (the model and settings of section 2; with dropout "
                 "on, the units each drops come from the seed too), then measures both the same "
                 "way.",
    "exp.break_label": "Parts to break",
    "exp.break_help": "Usually one, to see what that part is for; several at once also train "
                      "(even all of them), but then the result cannot say which part did what.",
    "exp.bad_none": "Choose at least one part to break.",
    "exp.combined": "**{n} parts broken at once.** The broken model lacks all of them, so the "
                    "numbers below cannot tell which part did what; break them one at a time "
                    "to see each.",
    "exp.break.decoder_mask.none": "No subsequent mask (the decoder sees later positions)",
    "exp.break.decoder_mask.inverted": "Inverted subsequent mask (masked_fill(mask == 1))",
    "exp.break.positional_encoding": "No positional encoding",
    "exp.break.scale_scores": "No √d_k scaling",
    "exp.break.residual": "No residual connections",
    "exp.break.smoothing": "Label smoothing ε (a training setting)",
    "exp.steps": "Steps for each model",
    "exp.steps_help": "Both models train for exactly this many steps, without early stop, so "
                      "they get the same budget; each may train for at most {seconds} s.",
    "exp.eps": "ε of the broken model (the correct one uses 0)",
    "exp.bad_choice": "Only the parts listed can be broken; the others were left out.",
    "exp.bad_steps": "The steps must be a whole number from {low} to {high}; {default} are "
                     "used instead.",
    "exp.bad_smoothing": "ε must be a number from {low} to {high}; {default} is used instead.",
    "exp.bad_one_mask": "The subsequent mask can be left out or inverted, not both at once; "
                        "only “{default}” is used.",
    "exp.what.decoder_mask.none": "**The change:** `TransformerConfig(decoder_mask=\"none\")`. "
                                  "`Decoder.forward` passes `tgt_mask` through "
                                  "`decoder_self_mask`, which keeps only its padding part, so "
                                  "every decoder position may attend to every position of the "
                                  "decoder input, later ones included. The paper's decoder "
                                  "prevents exactly this (§3.2.3).",
    "exp.what.decoder_mask.inverted": "**The change:** `decoder_mask=\"inverted\"`, the mistake "
                                      "of building the lower-triangular mask of 1s and then "
                                      "filling with `masked_fill(mask == 1, -1e9)`: each position "
                                      "may attend only to *later* positions, never to itself or "
                                      "the past (the Masks page shows it on your sentence).",
    "exp.what.positional_encoding": "**The change:** `positional_encoding=False`: "
                                    "`PositionalEncoding` adds zeros instead of the sinusoids "
                                    "(§3.5), in the encoder and in the decoder.",
    "exp.what.scale_scores": "**The change:** `scale_scores=False`: `attention()` uses the raw "
                             "Q·Kᵀ instead of Q·Kᵀ / √d_k (§3.2.1).",
    "exp.what.residual": "**The change:** `residual=False`: every `SublayerConnection` leaves "
                         "out its `x +`, so a sublayer's output replaces its input instead of "
                         "being added to it (§3.1).",
    "exp.what.smoothing": "**The change:** the second model trains towards a smoothed target "
                          "distribution with the ε you choose (the paper uses ε = 0.1, §5.4), the "
                          "first with ε = 0 (one-hot targets). Here “broken” only means changed: "
                          "the model itself is the same.",
    "exp.why.decoder_mask.none": "**Why it fails.** In training, the decoder input is the "
                                 "answer shifted right by one (`<s>` first), so position i can "
                                 "read token i + 1, the very token it must predict. Copying it "
                                 "needs nothing from the source, and the loss falls to almost "
                                 "nothing. When decoding, the model writes one token at a time "
                                 "and the positions after the current one do not exist yet: "
                                 "what it learned to look at is not there.",
    "exp.why.decoder_mask.inverted": "**Why it fails.** Each position may look only at later "
                                     "positions, and position i + 1 holds the token position i "
                                     "must predict, so training is as easy as with no mask. "
                                     "When decoding, the prediction that is used always comes "
                                     "from the newest position, the last one, which has no "
                                     "later position to look at: every key is blocked and it "
                                     "can only average all positions.",
    "exp.why.positional_encoding": "**What to expect.** Without positions, the encoder's "
                                   "output for a token does not depend on where it stands "
                                   "(permuting the source permutes the output the same way), "
                                   "so cross-attention can find a source token by *what* it is "
                                   "but not by *where* it is. Copying and reversing need the "
                                   "where: which source token comes n-th. Sorting needs only "
                                   "the what: its answer is the same for any order of the "
                                   "source.",
    "exp.why.scale_scores": "**What to expect.** With d_k = {d_k}, the raw scores are √{d_k} ≈ "
                            "{root} times the scaled ones and their variance {d_k} times (§3.2.1, "
                            "footnote 4). Large scores push the softmax towards one-hot weights, "
                            "where its gradients are very small, so learning can slow down or "
                            "stall. The effect grows with d_k.",
    "exp.why.residual": "**What to expect.** Without the residual path, a token's own embedding "
                        "and position reach the next layer only through attention and the "
                        "feed-forward network, and the gradient has no direct path back to the "
                        "early layers. Even one layer suffers, and deeper stacks suffer more (the "
                        "reason residual connections were introduced, He et al. 2016).",
    "exp.why.smoothing": "**What to expect.** With ε = {eps} the target puts {keep} on the right "
                         "token and spreads {eps} over the others except `<pad>` (The Annotated "
                         "Transformer's variant). The model is trained to stay unsure. The paper "
                         "reports that this hurts perplexity but improves accuracy and BLEU "
                         "(§5.4). A common reading (ours, not the paper's) is that it keeps a "
                         "model from memorising its training data, which these endless fresh "
                         "sequences never allow anyway.",
    "exp.measured": "**Measured** on the same {n} {sequences}: teacher-forced token "
                    "accuracy (the correct answer fed in, as in training) {tf_bad} for the broken "
                    "model against {tf_ok} for the correct one; greedy exact accuracy (the model "
                    "on its own) {greedy_bad} against {greedy_ok}; last training loss {loss_bad} "
                    "against {loss_ok}.",
    "exp.verdict_gap": "**The lesson is the gap.** With the answer fed in, the broken model "
                       "gets {tf_bad} of the tokens right, but decoding on its own it gets "
                       "{greedy_bad} of the sequences right, against {greedy_ok} for the "
                       "correct model. Training accuracy that does not survive decoding means "
                       "the model relied on something that is there only in training.",
    "exp.verdict_worse": "**The broken model is clearly worse:** {greedy_bad} of the sequences "
                         "exactly right against {greedy_ok}, after the same number of steps.",
    "exp.verdict_better": "**Here the broken model did better** ({greedy_bad} of the sequences "
                          "right against {greedy_ok}): at this size and budget the part was "
                          "not needed.",
    "exp.verdict_same": "**Here the part made no clear difference** ({greedy_bad} of the "
                        "sequences right against {greedy_ok}) at this size and budget.",
    "exp.hint.decoder_mask.none": "More steps help the correct model; the broken one cannot "
                                  "learn what it needs.",
    "exp.hint.decoder_mask.inverted": "More steps help the correct model; the broken one "
                                      "cannot learn what it needs.",
    "exp.hint.positional_encoding": "Try copy or reverse, whose answers depend on positions.",
    "exp.hint.scale_scores": "The effect grows with d_k: in section 2 choose the sidebar's "
                             "model and set d_model 128 with h = 1 (d_k = 128).",
    "exp.hint.residual": "Residual connections matter more in deeper stacks: in section 2 "
                         "choose the sidebar's model with N = 4.",
    "exp.hint.smoothing": "Smoothing is a regulariser: it pays off where a model could "
                          "memorise a fixed training set.",
    "exp.run": "Train both",
    "exp.training": "Training the correct model, then the broken one…",
    "exp.progress": "{name}: step {step} / {steps}, loss {loss}, {seconds} s",
    "exp.correct": "correct model",
    "exp.broken": "broken model",
    "exp.broken_named": "broken: {name}",
    "exp.cannot": "Nothing can be trained with these settings: {reason}",
    "exp.not_run": "Choose a part and press **Train both**: the two models train one after the "
                   "other, then both are measured.",
    "exp.incomplete": "The experiment was stopped before the {name} had trained a single step, so "
                      "there is nothing to compare; press **Train both** again.",
    "exp.trained": "Trained: {describe}; {steps} steps planned for each (the table shows the "
                   "steps done), from the same initial weights on the same batches. Accuracies "
                   "on {n} {sequences}.",
    "exp.col_measure": "measure",
    "exp.row_loss": "last training loss",
    "exp.row_tf": "teacher-forced token accuracy",
    "exp.row_greedy": "greedy exact accuracy",
    "exp.row_steps": "steps trained",
    "exp.row_seconds": "training time",
    "exp.attn_header": "Both models on the same input",
    "exp.attn_caption": "The probe input with the correct answer fed in (teacher forcing): "
                        "decoder self-attention of layer 0 and cross-attention of layer "
                        "{layer}, each averaged over the heads. Above them, what each model "
                        "writes on its own (greedy decoding).",
    "exp.answer": "**{name}** writes:",
    "exp.self_title": "decoder self-attention, layer 0 (mean of heads)",
    "exp.cross_title": "cross-attention, last layer (mean of heads)",
    "url.label.pe_k": "positional-encoding offset k",
    "url.label.ko_part": "knocked-out sublayer",
    "url.label.ko_open": "knock-out experiment (open or closed)",
    "url.label.tr_symbols": "training symbols",
    "url.label.tr_model": "model to train",
    "url.label.tr_steps": "training steps",
    "url.label.tr_batch": "batch size",
    "url.label.tr_smoothing": "label smoothing",
    "url.label.tr_schedule": "learning-rate schedule",
    "url.label.tr_lr": "learning rate",
    "url.label.tr_warmup": "warm-up steps",
    "url.label.tr_factor": "Noam factor",
    "url.label.tr_early": "“Stop when learned”",
    "url.label.tr_which": "model to decode with",
    "url.label.tr_input": "input to decode",
    "url.label.tr_step": "decoding step",
    "url.label.tr_beam": "beam size",
    "url.label.tr_alpha": "length-penalty α",
    "url.label.exp_breaks": "parts to break",
    "train.input.date_empty": "Type a date to translate, for example “Nov 23, 2026” or "
                              "“2026年11月23日”.",
    "train.input.bad_digits.one": "Only the digits 0 to 9, separated by spaces, can be used; "
                                  "symbol number {which} (counting from 1) is not a digit.",
    "train.input.bad_words.one": "Only the task's symbols, separated by spaces, can be used; "
                                 "symbol number {which} (counting from 1) is not one of them.",
    "train.list_sep": ", ",
    "train.quoted": "“{text}”",
    "train.model_recipe_label": "the task's recipe",
    "train.model_sidebar_label": "the sidebar's model",
    "train.status": "Training {task}: step {step} / {steps}, about {left} s left",
    "train.status_queued": "Training {task}: waiting for a free core ({ahead} ahead)",
    "train.status_starting": "Training {task}: starting…",
    "train.goes_on": "The training goes on while you use the rest of the app, on this page or "
                     "another, in either language, and through a short loss of connection. Stop, "
                     "a new training or its time limit ends it, and so does this tab staying "
                     "disconnected (closed or reloaded) for {reconnect} s, or for {gone} s while "
                     "a classmate waits for a core. When it ends, it becomes your trained model.",
    "train.previous_below": "Below: your previous trained model, until this training ends.",
    "train.replaying": "Replay: step {step} / {steps} · loss {loss} · {seconds} s",
    "train.replay_frame": "the film's input at step {step}: cross-attention, last layer, mean of "
                          "the heads",
    "train.again": "This training has been done already (same task, model, recipe and seed), so "
                   "its results appear at once: training is deterministic, and training it again "
                   "would give the same weights, step for step, in about {seconds} s. Watch it "
                   "again at the speed it trained, or train anew with the next seed.",
    "train.replay": "Watch it again",
    "train.replay_help": "Replays the recorded loss curve and attention at the speed the model "
                         "trained; any click ends the replay. Nothing is trained.",
    "train.reseed": "Train anew with seed {seed}",
    "train.reseed_help": "Sets the sidebar's seed to the next one (other initial weights and "
                         "other batches) and trains live.",
    "train.download_keep": "Your trained model lives only in this browser tab: reloading the page "
                           "or closing the tab loses it. Download it to keep it; “{panel}” in the "
                           "sidebar loads it back.",
    "train.reason.new_training": "a new training",
    "train.reason.question_gone": "the class moved on from the question it trained for",
    "train.held_out_missed_same": "The “{metric}” beside it is a second, separate test, the "
                                  "held-out evaluation: {right} of {total} other sequences right "
                                  "({acc}). Passing one check does not mean every sequence is "
                                  "right; the {wrong} it got wrong are all of length {lengths}.",
    "train.n_unknown": ", and {n} of its symbols are not the task's",
    "train.n_unknown.one": ", and 1 of its symbols is not the task's",
    "train.dropped_words.one": "1 word of your sentence is left out: it is not among the task's "
                               "symbols (the first {limit} different words).",
    "train.date_unknown.one": "1 character of this text never occurs in the task's dates: the "
                              "model reads it as <unk>.",
    "train.step_reads.one": "**Step {k}.** The decoder reads 1 token:",
    "train.trained_title.one": "trained (1 step)",
    "train.no_model_here": "Nothing to show here until the settings in section 2 make a model "
                           "that can be trained (section 2 says what to change).",
    "train.no_input_here": "Type an input to decode in section 3: this section shows its "
                           "attention before and after training.",
    "train.film_none": "Train a model in section 2: while it trains, the app records the "
                       "attention of one input, and this section plays it back.",
    "exp.stopped": "The {name}: training stopped at step {step} of {steps} ({reason}).",
    "fig.attention.head_short": "h{j}",
    "model.arch_header_loaded": "The architecture of the model shown",
    "ko.whose_shared": "Everyone looking at this model shares the same copy, which is why a "
                       "knock-out never writes to it.",
    "ko.whose_session": "This model lives in your session only; the knock-out leaves it as it is "
                        "all the same.",
    "ko.acc_vs_made": "The box at the top of the page gives the accuracy measured on {made_n} "
                      "other held-out dates when the model was made ({made}): different dates, so "
                      "the two numbers can differ.",
    "source.reads_target": "The decoder of \"{name}\" reads the target typed above (teacher "
                           "forcing), not its own answer: the decoder's attention shows the rows "
                           "of that text.",
    "source.clear_target": "Clear the target: show the model's own answer",
    "ckpt.start_nameless": "No token of this checkpoint's target vocabulary is named <s>: every "
                           "page starts the decoder from id {start}, where The Annotated "
                           "Transformer's vocabularies put <s>. Upload its token list to name the "
                           "tokens.",
    "sidebar.preset_tiny": "tiny",
    "sidebar.preset_small": "small",
    "sidebar.preset_paper_base": "paper base",
    "ckpt.upload_button": "Upload",
    "ckpt.upload_limit": "at most {mb} MB per file: {types}",
    "exp.goes_on": "Both models go on training while you use the rest of the app, on this page or "
                   "another, in either language. Stop or a new **Train both** ends the "
                   "experiment; its results appear here once both models have trained.",
    "exp.status": "Break a part: {name}, step {step} / {steps}",
    "exp.status_queued": "Break a part: waiting for a free core ({ahead} ahead)",
    "exp.status_measuring": "Break a part: measuring both models…",
    "exp.failed": "The experiment failed: {error}.",
    "intro.comp.Embeddings_unscaled": "Token ids to vectors (not multiplied by √d_model: that "
                                      "scaling is off)",
    "intro.comp.Encoder_post": "N encoder layers, no final norm (post-norm: each layer already "
                               "ends with one)",
    "intro.comp.Decoder_post": "N decoder layers, no final norm (post-norm: each layer already "
                               "ends with one)",
    "train.held_split": "Held out: one in {share} of the source sequences of length {lengths}, "
                        "chosen by a hash of the sequence.",
    "train.held_short": "Every sequence of length {lengths} is needed in training (at most "
                        "{count} of each length), so none of them is held out.",
    "train.held_short.one": "Every sequence of length {lengths} is needed in training (there are "
                            "only {count}), so none of them is held out.",
    "train.held_none": "With {symbols} symbols this task has too few different sequences to hold "
                       "any out: the evaluation draws sequences that training may also see.",
    "train.held_none.one": "With {symbols} symbol this task has too few different sequences to "
                           "hold any out: the evaluation draws sequences that training may also "
                           "see.",
    "train.held_out_missed_same.one": "The “{metric}” beside it is a second, separate test, the "
                                      "held-out evaluation: {right} of {total} other sequences "
                                      "right ({acc}). Passing one check does not mean every "
                                      "sequence is right; the one it got wrong is of length "
                                      "{lengths}.",
    "mask.leak_header": "Does −1e9 let later positions leak through a little?",
    "mask.leak_text": "A walk-through says that after `masked_fill(mask == 0, -1e9)` the softmax "
                      "still lets “a little” through from later positions. Not in float32, "
                      "the precision "
                      "this model computes in: on your scores above, **{zeros} of the {blocked}** "
                      "blocked weights come out exactly 0.0 (first row of the table). The softmax "
                      "computes exp(score − the row's largest score), and float32's exp gives "
                      "exactly 0 for every exponent below {cut32} (its smallest positive number "
                      "is {tiny}); −1e9 is about a billion below that. A blocked weight is "
                      "non-zero only when the fill minus the row's largest score is above "
                      "{cut32}, i.e. when the fill is too small for the scores: with {small}, the "
                      "largest blocked weight on your scores is {small_leak} (second row). "
                      "float16 has a far smaller range: its largest magnitude is {f16max}, so "
                      "−1e9 cannot be written at all and torch raises an overflow error (third "
                      "row). With float16's own lowest number, {f16min}, the blocked weights are "
                      "exactly 0 again; but float16's exp gives 0 only below {cut16}, so {small} "
                      "in float16 gives {small16_leak} (last row).",
    "mask.col_dtype": "dtype",
    "mask.col_fill": "value written",
    "mask.col_zeros": "blocked weights exactly 0",
    "mask.col_largest": "largest blocked weight",
    "mask.leak_overflow": "torch raises an overflow error",
    "mask.unsqueeze_text": "A walk-through writes `mask = mask.unsqueeze(0)` at this point. That "
                           "adds the new axis in front of the batch axis, so the mask's sentence "
                           "axis lines up with the scores' head axis. Both versions on the two "
                           "sentences above and this model's heads (after the arrow: the mask "
                           "broadcast with the scores):",
    "mask.unsqueeze_caption": "With {batch} sentences and h = {h}, unsqueeze(0) {verdict} Only a "
                              "batch of one sentence would get the right mask either way. The "
                              "walk-through's own test ran because its mask, {seed_mask}, holds "
                              "one matrix per head, not per sentence: unsqueeze(0) makes it "
                              "{seed_wrong}, which broadcasts to {seed_result}. A per-sentence "
                              "mask of its sizes, {batch_mask}, fails with unsqueeze(0) "
                              "({batch_wrong} against the scores {scores}) and works with "
                              "unsqueeze(1) ({batch_right}, broadcast to {batch_result}).",
    "mask.unsqueeze_fails": "raises an error: the sentence axis meets the head axis and their "
                            "sizes differ.",
    "mask.unsqueeze_mixes": "runs without an error but is wrong: head j of every sentence uses "
                            "sentence j's mask.",
    "mask.unsqueeze_error": "error: sizes do not match",
    "mask.unsqueeze_mixed": "{shape}, but head j gets sentence j's mask",
    "mask.unsqueeze_src_mask": "src_mask (encoder self-attention)",
    "mask.unsqueeze_tgt_mask": "tgt_mask (decoder self-attention)",
    "mask.col_mask": "mask",
    "mask.col_shape": "its shape",
    "mask.col_scores": "scores (batch, h, q, k)",
    "train.loss_expander": "The loss per token: NLLLoss and CrossEntropyLoss",
    "train.nll_text": "The generator ends with `log_softmax`: for every position it gives "
                      "log-probabilities x, one per vocabulary token, each at most 0. The loss on "
                      "them is `nn.NLLLoss` (negative log-likelihood): given x and the label y it "
                      "returns **−x[y]**, averaged over the labels. A walk-through writes that "
                      "NLLLoss returns x[y]; the minus sign is missing. It matters: x[y] grows "
                      "toward 0 as the model gives the label more probability, so a loss of x[y] "
                      "would be lowest when the label's probability is 0, and training would "
                      "teach the model to avoid the right answer.",
    "train.nll_live": "**On your sentence,** with the model chosen in the sidebar: decoder "
                      "position 0 reads `<s>` and its label y is your target's first token (id "
                      "{y}). The generator gives it x[y] = {x_y} (probability {p}), and "
                      "`nn.NLLLoss()(x, y)` returns **{loss}** = −x[y]. Over all {m} labels of "
                      "your sentence, the mean of x[y] is {mean_x_y} and NLLLoss returns "
                      "{mean_loss}; this app's `LabelSmoothing` with ε = 0, divided by the {m} "
                      "labels, gives the same {ours}.",
    "train.nll_no_sentence": "Type a target sentence in the sidebar to see NLLLoss on your own "
                             "sentence.",
    "train.ce_example": "**CrossEntropyLoss or NLLLoss: the same number.** The walk-through's "
                        "example has five classes with the logits {logits} and the label {label}. "
                        "`nn.CrossEntropyLoss()` on the logits gives **{ce}**; `nn.NLLLoss()` on "
                        "their `log_softmax` gives **{nll}** (there x[y] = {x_y}, and NLLLoss "
                        "returns −x[y]); by hand, −log(e³ / (e⁰ + e¹ + e² + e³ + e⁴)) = "
                        "{by_hand}. CrossEntropyLoss is log_softmax followed by NLLLoss. This "
                        "app's generator already applies `log_softmax`, so its loss "
                        "(`LabelSmoothing`, which is NLLLoss summed when ε = 0) reads "
                        "log-probabilities. CrossEntropyLoss on them would not be wrong, only "
                        "wasted work: log_softmax leaves log-probabilities as they are, so it "
                        "gives **{ce_log}** again (its gradient differs from NLLLoss's by at "
                        "most {grad_gap}). The two real mistakes give other numbers. "
                        "CrossEntropyLoss on probabilities (after `softmax`) gives "
                        "**{ce_probs}**, and even a perfect prediction would score "
                        "{ce_probs_floor}, never 0. NLLLoss on raw logits gives "
                        "**{nll_logits}** (−x[y] of the logit itself): a loss below zero, "
                        "which training lowers without end by growing that one logit.",
    "train.tf_seed_text": "During training (teacher forcing) the decoder does not read its own "
                          "outputs. A walk-through's example, cut by this app's `Batch`: the "
                          "target “<sos> it is a good day <eos>” (`<s>` and `</s>` here) becomes "
                          "the decoder input `tgt`, without the last token, and the labels "
                          "`tgt_y`, without the first: the same sentence shifted by one.",
    "train.tf_seed_caption": "{n} positions, all trained in one pass; position i reads the inputs "
                             "of rows 0 … i and must predict the label on row i. The target mask "
                             "for this one sentence has the shape {shape}.",
    "attn.kv_text": "**K and V: one input, two projections.** A walk-through says K is usually V. "
                    "What K and V share is their input: {source}. This app recomputes head "
                    "{head}'s K and V from that one {rows} × {d_model} tensor, with W^K and W^V, "
                    "and matches the K and V charts above to within {error}. But W^K and W^V are "
                    "two separately learned matrices (for this head their difference is {w_diff} "
                    "times the size of W^K), so K and V are different tensors: mean |K| = "
                    "{mean_k}, mean |V| = {mean_v}, mean |K − V| = {mean_diff}, and the "
                    "correlation of their entries is {corr}.",
    "attn.kv_source_memory": "in cross-attention both come from `memory`, the encoder's output "
                             "(`src_attn(x, m, m, src_mask)`)",
    "attn.kv_source_x": "in self-attention the queries, keys and values all come from the same x, "
                        "the sublayer's input (`self_attn(x, x, x, mask)`)",
    "shapes.walk_example": "**Scaled dot-product attention on (batch, h, seq, d_k) = ({batch}, "
                           "{h}, {seq}, {d_k}).** A walk-through follows these shapes through "
                           "`attention(query, key, value, mask)`: {batch} sentences, {h} heads, "
                           "{seq} positions, {d_k} numbers per head. This app's `attention` on "
                           "random tensors of those shapes, with a padding mask (True on real "
                           "tokens), gives:",
    "shapes.walk_caption": "Only the last two axes take part in the products: ({seq} × {d_k}) · "
                           "({d_k} × {seq}) gives the {seq} × {seq} scores, and ({seq} × {seq}) · "
                           "({seq} × {d_k}) the {seq} × {d_k} output; the mask's size-1 axes are "
                           "broadcast over the heads and the query rows. With the decoder's mask "
                           "{dec_mask} instead, the weights are still {dec_weights} and the "
                           "output {dec_out}. K does not need Q's shape, only its batch, heads "
                           "and d_k: with keys and values of {src_len} source positions, "
                           "{cross_k} (cross-attention), the weights are {cross_weights} and the "
                           "output is {cross_out}, one row per query.",
    "shapes.ex.walk_q": "Q: batch, heads, positions, d_k",
    "shapes.ex.walk_k": "K: the same shape as Q here (self-attention)",
    "shapes.ex.walk_v": "V: one d_k vector per key position",
    "shapes.ex.walk_mask": "padding mask (batch, 1, 1, seq): the same for every head and every "
                           "query",
    "shapes.ex.walk_scores": "Q·Kᵀ / √d_k: one score per query–key pair, per head",
    "shapes.ex.walk_masked_scores": "the scores with −1e9 written where the mask is False",
    "shapes.ex.walk_pattern": "softmax over the keys: the attention weights",
    "shapes.ex.walk_out": "the weights times V: one d_k vector per query, per head",
    "class.title": "Teach or join a class",
    "class.start_help": "Start a class and share its code or link: every student who opens it "
                        "sees what you show, page, settings and sentence, and follows your "
                        "changes within seconds. Students keep their own interface language.",
    "class.start": "Start a class",
    "class.code_label": "Class code",
    "class.join": "Join the class",
    "class.not_a_code": "That is not a class code: a class code has six letters and digits, like "
                        "K7Q2XM.",
    "class.wait": "Many wrong class codes came from your network, so its codes are checked "
                  "one at a time: try again in {seconds} s.",
    "class.not_found_paced": "No class is running with the code {code}. {n} or more wrong class "
                             "codes came from your network within a minute, so each code "
                             "from it is now checked {step} s after the last wrong one: a "
                             "right code still joins, after that wait.",
    "class.not_found": "No class is running with the code {code}: it may have ended. The app "
                       "works as usual without it.",
    "class.unavailable": "Classes are not available on this server: its class store could not be "
                         "opened (the CLASS_STORE setting).",
    "class.teaching": "You teach this class. Students open the link, scan the code or type the "
                      "class code:",
    "class.qr_caption": "The join link as a QR code",
    "class.qr_alt": "QR code of the join link, {link}",
    "class.roster": "Students connected: {connected} ({following} following, {exploring} "
                    "exploring)",
    "class.asked": "Questions so far ({n})",
    "class.asked_right": "{answered} answered, {right} right",
    "class.asked_open": "{answered} answered, not revealed",
    "class.end": "End the class",
    "class.ended": "This class has ended.",
    "class.in_class": "In class {code}",
    "class.follow": "Follow the teacher",
    "class.follow_help": "On: your page shows what the teacher shows. Change anything yourself "
                         "and you explore on your own; the teacher's changes then wait until you "
                         "follow again.",
    "class.elsewhere": "You are exploring. The class is on the {page} page.",
    "class.back": "Back to the class",
    "class.leave": "Leave the class",
    "class.banner": "Join the class: {code}",
    "class.qr_button": "QR code",
    "class.q_students": "students",
    "class.q_chart": "The class's answers",
    "class.q_token": "Where will \"{query}\" look? {kind}, layer {layer}, head {head}: which "
                     "token does it attend to most?",
    "class.q_numbering": "Tokens are named position:token, as in the choices; positions, layers "
                         "and heads are numbered from 0, as in the heatmaps.",
    "class.q_sent": "Your answer is in. The heatmaps come back when the teacher reveals the "
                    "answer.",
    "class.q_your_answer": "Your answer",
    "class.q_send": "Send my answer",
    "class.q_pick": "Pick a token",
    "class.q_pick_first": "Pick your answer first, then send it.",
    "class.hidden_for_now": "Hidden until the teacher reveals the answer.",
    "class.hidden_on_projector": "Hidden on the projector until you reveal the answer.",
    "class.q_closed": "This question is closed: the teacher has moved on.",
    "class.q_hidden": "The heatmaps are hidden until the teacher reveals the answer: they would "
                      "give it away. One answer each.",
    "class.ask_title": "Ask the class: where will it look?",
    "class.ask_help": "Pick a query token, and a layer and a head of the attention chosen "
                      "above: students guess which token it attends to most. Their heatmaps "
                      "stay hidden until you reveal; in presenter mode yours too, from when you "
                      "open this panel.",
    "class.q_query": "Query token",
    "class.ask": "Ask the class",
    "class.reveal": "Reveal the answer",
    "class.q_answered": "Answers so far: {n}",
    "class.q_truth": "The model attends most to {token}: {right} of {n} answers were right "
                     "({share}).",
    "class.q_model_pick": "the model's pick",
    "class.q_nickname": "Your name (optional)",
    "class.q_nickname_help": "A name is optional. If you give one, only the teacher sees it: "
                             "beside your answer, in the list of who explores, and in the "
                             "teacher's download of every student's answers; other students "
                             "never see it. When the teacher's screen is "
                             "projected, names stay hidden there unless the teacher chooses "
                             "to show them.",
    "class.q_names_hidden": "Names given with the answers: {n}, hidden on the projector (\"Show "
                            "names on the projector\" in the class panel shows them).",
    "class.show_names": "Show names on the projector",
    "class.show_names_help": "In presenter mode students' names are hidden: who answered what, "
                             "and who explores. Switch this on to show them to the room.",
    "class.roster_explorers": "Exploring: {names}",
    "class.roster_steps": "Where the students are in the lesson: {steps}",
    "class.roster_step": "step {i}: {n}",
    "class.roster_no_steps": "No student has the lesson open yet.",
    "class.locked_back": "Your teacher has locked this step: the view stays the class's.",
    "class.follow_locked_help": "Your teacher has locked this step: you follow the class "
                                "until they unlock it or move on.",
    "class.q_open_exploring": "The teacher asked a question. Go back to the class to answer it.",
    "class.q_you_none": "You did not answer this question.",
    "class.q_you_picked": "Your answer: {answer}.",
    "class.q_you_right": "Your answer, {answer}, was right.",
    "class.q_you_wrong": "Your answer was {answer}; the right one is {truth}.",
    "class.banner_fold": "Fold",
    "class.banner_unfold": "Unfold",
    "class.public_url_bad": "The {setting} setting is not a web address (http:// or https:// and "
                            "a host): the join link uses this browser's address instead.",
    "class.loopback": "Students cannot open this link: it is this computer's own address. Open "
                      "the app at the computer's network address, or set {setting} to the "
                      "address students use (README, \"Use it in class\").",
    "class.loopback_short": "Students cannot open this address: it is this computer's own (see "
                            "the class panel).",
    "class.banner_line": "Join the class: {link}",
    "class.explore_toast": "You are exploring on your own: the class goes on without you. \"Back "
                           "to the class\" is at the top of the page.",
    "class.end_confirm": "End the class for every student? Their pages stop following you. Its "
                         "questions and answers stay here, to look at and download.",
    "class.end_yes": "End it",
    "class.end_no": "Cancel",
    "class.ended_teacher": "The class {code} has ended. Its questions and answers are below, to "
                           "look at and download.",
    "class.ended_none": "No question was asked in this class.",
    "class.ended_close": "Close",
    "class.results_help": "Download every question: its prompt, status, how many answered, "
                          "each choice's count and the right one (the JSON also every "
                          "answer, by the student's number). No names.",
    "class.results_students": "CSV, each student",
    "class.results_students_help": "Every answer, one row each: the student (numbered in the "
                                   "order they first answered, with the name they gave, if "
                                   "any), the question, their answer, whether it was right, "
                                   "and when (UTC). It holds names: keep it to yourself.",
    "class.q_names": "Who answered what: {names}",
    "class.q_next": "Step {step}: which token will the decoder write next?",
    "class.q_next_source": "The source it translates:",
    "class.q_next_prefix": "What the decoder has written so far, starting from `<s>`:",
    "class.q_next_sent": "Your answer is in. The decoding comes back when the teacher reveals "
                         "the answer.",
    "class.q_next_hidden": "The decoding is hidden until the teacher reveals the answer: it "
                           "would give it away. One answer each.",
    "class.q_next_truth": "The decoder writes {token}: {right} of {n} answers were right "
                          "({share}).",
    "class.ask_next_title": "Ask the class: which token comes next?",
    "class.ask_next_help": "Students see the source and the {k} tokens the decoder reads at "
                           "this step, and guess the token it writes (its greedy pick). Their "
                           "decoding stays hidden until you reveal.",
    "class.ask_break_title": "Ask the class: which break will hurt the {task} task the most?",
    "class.ask_break_help": "Students pick one of the breaks you offer. As you ask, the server "
                            "trains the correct model and one broken model per break, one "
                            "after the other: each break alone, as **Train both** would train "
                            "it (the same initial weights and batches, {steps} steps each; no "
                            "label smoothing but the smoothing break's ε = {eps}). The answer "
                            "is the break whose model decodes the held-out sequences worst: "
                            "the lowest greedy exact accuracy, a tie going to the lower "
                            "teacher-forced accuracy, then to the higher loss. Reveal waits "
                            "until every model is measured.",
    "class.break_offered": "Breaks to offer",
    "class.break_two": "Offer at least two breaks.",
    "class.q_break": "Which break will hurt the {task} task the most?",
    "class.q_break_how": "The teacher's server trains the correct model and one model with "
                         "each break, {steps} steps each. The answer is the break whose model "
                         "decodes worst (greedy exact accuracy on held-out sequences).",
    "class.q_break_sent": "Your answer is in. The teacher reveals which break hurt most once "
                          "every model is trained and measured.",
    "class.q_break_hidden": "One answer each. The class's answers and the measured truth come "
                            "with the reveal.",
    "class.q_break_truth": "The break that hurt most: {token}. {right} of {n} answers were "
                           "right ({share}).",
    "class.reveal_waits": "Reveal is ready once every model is trained and measured.",
    "class.race_missing": "The models for this question are not in this tab (it was opened "
                          "again, or their training could not start), so the break that hurts "
                          "most is not measured here: Reveal shows the class's answers "
                          "without it. Ask again to measure it.",
    "class.race_stopped": "The training stopped before every model had trained, so the break "
                          "that hurts most is not measured: Reveal shows the class's answers "
                          "without it. Ask again to measure it.",
    "class.race_hidden": "The measurements stay hidden on the projector until you reveal the "
                         "answer.",
    "class.race_model": "model",
    "class.race_caption": "Each model trained {steps} steps from the same initial weights; "
                          "accuracies on the same {n} {sequences}.",
    "class.race_progress": "Model {k} of {n} ({name}): step {step} / {steps}",
    "class.q_hurt_most": "hurt most",
    "class.race_weak": "After {steps} steps the correct model itself decodes only {greedy} of "
                       "the held-out sequences: too few steps for the breaks to differ much. "
                       "For a race that shows something, ask again with more steps (section "
                       "7's slider; {default} is its default).",
    "exp.short.decoder_mask.none": "No subsequent mask",
    "exp.short.decoder_mask.inverted": "Inverted subsequent mask",
    "exp.short.positional_encoding": "No positional encoding",
    "exp.short.scale_scores": "No √d_k scaling",
    "exp.short.residual": "No residuals",
    "exp.short.smoothing": "Label smoothing",
    "class.break_wait": "The class's question is open: this section comes back when the "
                        "teacher reveals the answer (a break trained here would give it away).",
    "class.break_one_mask": "No subsequent mask and the inverted one both decode nothing: only "
                            "the first of the two is offered.",
    "class.asked_no_truth": "{answered} answered, revealed without a measured answer",
    "class.q_no_truth": "Revealed without a measured answer: the models did not all finish "
                        "training. {n} answered.",
    "class.q_open_attention": "The teacher asked a question: answer it on this page, above "
                              "the heatmaps.",
    "class.q_open_next": "The teacher asked a question: answer it on this page, in section 3.",
    "class.q_open_break": "The teacher asked a question: answer it on this page, in section 7.",
    "class.close_answers": "Close answers",
    "class.close_answers_help": "No more answers: those already in are kept and counted. "
                                "Reveal when you are ready.",
    "class.answers_closed": "Answers are closed.",
    "class.countdown": "Answers close in {s} s",
    "class.countdown_done": "Time is up: the answers are closing.",
    "class.countdown_start": "Or close them in",
    "class.countdown_seconds": "{n} s",
    "class.countdown_help": "Every student's page counts down; when the time is up, the "
                            "answers close (those in stay) and you reveal when ready. Keep "
                            "this page open: it closes them.",
    "class.q_closed_wait": "The teacher closed the answers before yours was sent. The right "
                           "answer comes with the reveal.",
    "class.q_lesson_sent": "Your answer is in. The teacher reveals the right answer to the "
                           "whole class.",
    "class.q_lesson_hidden": "One answer each. The right answer and the class's answers come "
                             "when the teacher reveals them.",
    "class.q_lesson_truth": "The right answer: {token}. {right} of {n} answers were right "
                            "({share}).",
    "class.q_right_one": "right answer",
    "class.q_poll_revealed": "A poll: no answer is right or wrong. {n} answered.",
    "class.q_open_lesson": "The teacher asked this step's question: answer it in the lesson's "
                           "box, just below.",
    # ---- lessons (explorer/sections/lesson.py) ----
    "lesson.box": "Lessons",
    "lesson.box_help": "A lesson is a path through the app: each step shows a view, a note "
                       "and sometimes a question to check yourself. Open one, or make your own "
                       "from what you are looking at.",
    "lesson.shipped": "Lessons that come with the app",
    "lesson.open": "Open this lesson",
    "lesson.upload": "Open a lesson file",
    "lesson.upload_help": "A lesson saved with this app (.json, at most {kb} KB). It is "
                          "checked before it opens and stays in your browser tab.",
    "lesson.start_here": "Make a lesson, starting with this view",
    "lesson.start_here_help": "What you are looking at becomes step 1. Then go to another "
                              "view and add it as the next step.",
    "lesson.not_opened": "The lesson could not be opened: {reason}",
    "lesson.untitled": "A lesson",
    "lesson.where": "**{title}** · step {i} of {n}",
    "lesson.away": "You have moved away from this step's view (to look around, which is fine). "
                   "The step is on the {page} page.",
    "lesson.show_step": "Show this step's view again",
    "lesson.back": "Back",
    "lesson.next": "Next",
    "lesson.close": "Close the lesson",
    "lesson.last_step": "This is the last step.",
    "lesson.question": "Check yourself:",
    "lesson.your_answer": "Your answer",
    "lesson.check": "Check",
    "lesson.again": "Try again",
    "lesson.right": "Right: {given}.",
    "lesson.wrong": "Not quite: you chose {given}; the answer is {truth}.",
    "lesson.poll_answer": "You chose {given}. This question has no single right answer.",
    "lesson.q_needs_step": "This step's question is about its own view: show it again to answer.",
    "lesson.q_does_not_fit": "This step's question asks about a token, layer or head that the "
                             "model and sentence shown do not have.",
    "lesson.q_attention": "In the {kind}, layer {layer}, head {head}: which key does the query "
                          "\"{query}\" give the most weight to?",
    "lesson.attention_truth": "The model shown gives {share} of this query's weight to {key}.",
    "lesson.attention_second": "Next comes {key}, with {share}.",
    "a11y.row_strongest": "Query {query} attends most to key {key} ({share}).",
    "a11y.row_second": "Next: key {key} ({share}).",
    "a11y.col_layer": "Layer",
    "a11y.col_head": "Head",
    "a11y.col_query": "Query",
    "a11y.col_key": "Strongest key",
    "a11y.col_weight": "Weight",
    "a11y.mean_heads": "mean of the heads",
    "a11y.grid_as_text": "The grid as text: each query's strongest key",
    "a11y.weights_as_text": "These weights as text",
    "a11y.answers_given": "Answers given (answer: students): {given}",
    "a11y.mask_row": "{row}: may attend to positions {allowed}.",
    "a11y.mask_blocked": "Blocked: {blocked}.",
    "a11y.none": "none",
    "a11y.mask_as_text": "This mask as text",
    "a11y.pe_curve": "Dimension {d} ({kind}): one full wave every {period} positions; {first} "
                     "at position 0, {last} at position {n}.",
    "a11y.curves_as_text": "These curves as text",
    "a11y.chart_as_text": "This chart as text",
    "a11y.axes": "Across: {across}; down: {down}.",
    "a11y.frames": "An animation of {n} frames; the numbers below are of the frame drawn "
                   "first.",
    "a11y.panel": "Panel {i} of {n}:",
    "a11y.heat_row": "Row {row}: highest {high} at {high_at}, lowest {low} at {low_at}.",
    "a11y.heat_row_empty": "Row {row}: no value.",
    "a11y.heat_summary": "{rows} rows × {cols} columns: highest {high} at row {high_row}, "
                         "column {high_col}; lowest {low} at row {low_row}, column "
                         "{low_col}; mean {mean}.",
    "a11y.heat_empty": "{rows} rows × {cols} columns, no value drawn.",
    "a11y.heat_blank": "{n} cells have no value (drawn blank).",
    "a11y.series": "Values",
    "a11y.points": "{name}: {points}.",
    "a11y.curve": "{name}: {n} points, from {first} at {first_at} to {last} at {last_at}; "
                  "highest {high} at {high_at}, lowest {low} at {low_at}.",
    "a11y.bars": "{name}: {bars}.",
    "a11y.labels": "Its labels:",
    "a11y.more": "And {n} more.",
    "access.code_region": "Code (scrolls sideways: arrow keys)",
    "access.formula_region": "Formula (scrolls sideways: arrow keys)",
    "lesson.q_next": "The decoder has read \"{read}\" (its first {n} target positions, as in "
                     "training). Which token does it give the highest probability next?",
    "lesson.next_truth": "The model shown gives {token} the highest probability: {share}.",
    "lesson.editing": "Editing this lesson: you are on step {i} of {n}.",
    "lesson.title_in": "Title ({lang})",
    "lesson.add_here": "Add this view as a step",
    "lesson.add_here_help": "What you are looking at becomes a new step after the one shown "
                            "(at most {n} steps).",
    "lesson.set_here": "Use this view for the step",
    "lesson.set_here_help": "The step shown takes what you are looking at as its view.",
    "lesson.earlier": "Earlier",
    "lesson.later": "Later",
    "lesson.upload_limit": "JSON, at most {kb} KB",
    "lesson.remove_step": "Remove this step",
    "lesson.note_in": "This step's note ({lang})",
    "lesson.q_kind": "This step's question",
    "lesson.q_kind_help": "Which key a query attends to most, or which token the decoder "
                          "writes next: the answer is read from the live model at this step's "
                          "view (on the Attention page: its kind, layer and head). Multiple "
                          "choice: your options, one of them right. Poll: your options, none "
                          "right.",
    "lesson.kind_none": "No question",
    "lesson.kind_attention": "Where does a query look? (answer from the model)",
    "lesson.kind_next": "Which token comes next? (answer from the model)",
    "lesson.kind_choice": "Multiple choice, one right answer",
    "lesson.kind_poll": "Poll, no right answer",
    "lesson.q_query": "Position (where does a query look? which token comes next?)",
    "lesson.q_query_help": "Counted from 0. Where does a query look: the query token's "
                           "position. Which token comes next: the last target position the "
                           "decoder has read (0 is <s>, the start).",
    "lesson.q_prompt": "Question ({lang})",
    "lesson.q_options": "Options ({lang}), one per line",
    "lesson.q_options_help": "2 to 6 options, in the same order in both languages.",
    "lesson.q_answer": "The right option's number (multiple choice)",
    "lesson.q_answer_help": "Counted from 1, as the options are listed.",
    "lesson.q_explain": "Said after an answer ({lang})",
    "lesson.save_step": "Save this step's note and question",
    "lesson.saved": "Step saved.",
    "lesson.download": "Download the lesson (.json)",
    "lesson.link_help": "A link that opens this lesson at step 1 (it holds the whole lesson):",
    "lesson.in_top": "in the lesson",
    "lesson.in_step": "in step {step}",
    "lesson.what_title": "the title",
    "lesson.what_note": "the note",
    "lesson.what_prompt": "the question",
    "lesson.what_explain": "the explanation",
    "lesson.what_option": "an option",
    "lesson.err_link": "the link does not hold a lesson this app can read.",
    "lesson.err_too_big": "it is larger than {kb} KB.",
    "lesson.err_json": "it is not a lesson file (JSON) this app can read.",
    "lesson.err_top": "it is not a lesson file: the file must be one JSON object.",
    "lesson.err_format": "it is not a lesson file of this app.",
    "lesson.err_newer": "it was saved by a newer version of this app (format {version}).",
    "lesson.err_no_steps": "it has no steps.",
    "lesson.err_steps": "it has more than {n} steps.",
    "lesson.err_field": "{where}, the field \"{field}\" is not one a lesson has (it may have: "
                        "{fields}).",
    "lesson.err_text": "{where}, {what} must be a text in English and/or Chinese.",
    "lesson.err_long": "{where}, {what} is longer than {n} characters.",
    "lesson.err_step": "{where}, the step is not an object with a page and a view.",
    "lesson.err_page": "{where}, the page must be one of {pages}.",
    "lesson.err_view": "{where}, the view must be a link's parameters, each a text.",
    "lesson.err_view_key": "{where}, the view has \"{name}\", which is not a setting or choice "
                           "of this app.",
    "lesson.err_view_value": "{where}: {notice}",
    "lesson.err_question": "{where}, the question is not an object.",
    "lesson.err_kind": "{where}, the question's kind must be one of {kinds}.",
    "lesson.err_query": "{where}, the query position must be a whole number from 0 to {n}.",
    "lesson.err_options": "{where}, the question needs {low} to {high} options, none empty.",
    "lesson.err_answer": "{where}, the right answer must be the number of one of the {n} "
                         "options.",
    "lesson.err_poll": "{where}, a poll has no right answer.",
    "lesson.err_prompt": "{where}, the question has no text.",
    "lesson.class_too_long": "This lesson is too long to travel with the class: students "
                             "follow your views but not its notes and questions. Share it as a "
                             "file instead, or shorten its notes.",
    "lesson.class_next_up": "Next: step {i}, on the {page} page.",
    "lesson.class_question": "Question for the class:",
    "lesson.class_ask": "Ask the class",
    "lesson.class_paced": "Your teacher moves the class through this lesson, step by step.",
    "lesson.class_self_paced": "Work through this lesson at your own pace: Back and Next "
                               "are yours. Your teacher sees which step you are on.",
    "lesson.pace": "Students move at their own pace",
    "lesson.pace_help": "On: each student moves through the lesson with their own Back and "
                        "Next, and checks each step's question on their own; the class panel "
                        "shows how many are on each step. Off: your Back and Next move "
                        "everyone, and you ask each step's question to the class.",
    "lesson.check_to_teacher": "Your teacher sees your latest answer to each step's "
                               "question, with the nickname you give.",
    "lesson.check_not_kept": "Checked here, but the class did not keep this answer (the "
                             "class may have ended).",
    "lesson.checks": "Self-checks (students who answered: {n})",
    "lesson.checks_none": "No student has answered a question of this lesson yet.",
    "lesson.checks_step": "{answered} answered, {right} right ({share})",
    "lesson.checks_step_poll": "{answered} answered (a poll)",
    "lesson.checks_step_none": "no answer yet",
    "lesson.step_n": "Step {i}:",
    "lesson.checks_csv_help": "Each student's latest answer to each step's question, one row "
                              "each: the student (numbered), the nickname they gave, the "
                              "step, the answer, right or not, how many tries, when (UTC). "
                              "It holds the students' nicknames.",
    "lesson.checks_json_help": "The same answers as JSON, by the student's number only (no "
                               "names).",
    "lesson.pace_self_note": "Student-paced: your Back and Next move only you. Each student "
                             "checks this step's question on their own.",
    "lesson.lock": "Lock exploring on this step",
    "lesson.lock_help": "On: every student's view stays the class's on this step (a change "
                        "of their own goes back at once, they cannot stop following, and "
                        "those exploring come back). The lock ends when you move to another "
                        "step or switch it off.",
    "lesson.class_locked": "Your teacher has locked this step: the view stays the class's.",
    "lesson.class_q_later": "This step has a question: answer it when your teacher asks it.",
    "lesson.hide_notes": "Hide the notes on the projector",
    "lesson.hide_notes_help": "The step's note stays on your students' screens; the "
                              "projected screen shows that it is hidden.",
    "lesson.note_hidden": "The step's note is hidden on the projector; students read it on "
                          "their screens.",
}
