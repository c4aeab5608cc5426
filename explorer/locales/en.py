"""English interface text. Keys are grouped by page; `{name}` fields are filled by t()."""

TEXT: dict[str, str] = {
    # ---- app and sidebar ----
    "app.title": "Transformer Explorer",
    "sidebar.language": "Language / 语言",
    "sidebar.presenter": "Presenter mode",
    "sidebar.presenter_help": "Larger text and charts, readable on a projector from the back "
                              "of a room.",

    # ---- checkpoint import panel (explorer/ui.py): drafted here so the app runs; the panel's
    # author should check the wording ----
    "sidebar.params_imported": "Parameters (imported model)",
    "ckpt.title": "Import a checkpoint",
    "ckpt.using": "Using the imported model: N={N}, d_model={d_model}, h={h}, d_ff={d_ff}, "
                  "vocabularies of {src} (source) and {tgt} (target) tokens.",
    "ckpt.forget": "Forget the imported model",
    "ckpt.explain": "Weights saved from The Annotated Transformer's `make_model` (a "
                    "`state_dict`), or a checkpoint exported by this app; at most {mb} MB. The "
                    "file is only read as data: no code in it is run.",
    "ckpt.file": "Checkpoint file",
    "ckpt.h": "h (heads)",
    "ckpt.h_help": "The number of heads cannot be read from the weights (W^Q holds every head "
                   "in one matrix): give the h the model was trained with. This app's own "
                   "exports record it, so it is ignored for them.",
    "ckpt.vocab": "Vocabulary (optional)",
    "ckpt.vocab_help": "A text file with one token per line, in id order, so that the pages "
                       "show words instead of ids.",
    "ckpt.load": "Load",
    "ckpt.vocab_too_big": "The vocabulary file is too large (at most 5 MB).",
    "ckpt.loading": "Loading the checkpoint…",
    "ckpt.vocab_not_utf8": "The vocabulary file is not UTF-8 text.",
    # show_problems (explorer/ui.py), for the patch proposed to its author
    "problems.text": "**Your text could not be used.** {reason}",
    "problems.arch": "**No model can be built with these settings.** {reason}",

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
                   "attending to the tokens it has produced so far (masked self-attention) and "
                   "to `memory` (cross-attention); a final `generator` turns each of its vectors "
                   "into log-probabilities for the next token. In the code that is one line, "
                   "`EncoderDecoder.forward = decode(encode(src, src_mask), src_mask, tgt, "
                   "tgt_mask)`, and everything on this page is read from the model built with "
                   "the sidebar's settings.",
    "model.arch_header": "The architecture, from your settings",
    "model.lengths_known": "src_len = {src_len} source tokens and tgt_len = {tgt_len} decoder "
                           "inputs (`<s>` + the target) come from your sentence",
    "model.lengths_unknown": "the sentence lengths are shown as symbols until your text can be "
                             "used",
    "model.norm_pre": "**Pre-norm** (The Annotated Transformer): each sublayer computes "
                      "`x + dropout(sublayer(LayerNorm(x)))`, so the residual path skips the "
                      "LayerNorm and each stack needs one final LayerNorm.",
    "model.norm_post": "**Post-norm** (the paper's \"Add & Norm\"): each sublayer computes "
                       "`LayerNorm(x + dropout(sublayer(x)))`, so every layer already ends "
                       "normalised and the stacks have no final LayerNorm.",
    "model.arch_caption": "Data flows upwards. Shapes are (batch, …) with batch = 1; {lengths}. "
                          "Every ⊕ is a residual addition: the arrow around each sublayer carries "
                          "its input past it. {norm_text} Purple: the mask each attention "
                          "receives (True = may attend). Dropout is not drawn; it follows every "
                          "sublayer and the embedding + positional encoding sum.",
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
                        "and the generator grow with the vocabulary, which here is only the "
                        "{vocab} tokens of your sentences (4 special tokens included). With the "
                        "paper's shared vocabulary of about {paper_vocab} tokens and one table "
                        "shared by both embeddings and the output layer (section 3.4), this "
                        "architecture would have about {paper_total}M parameters.",
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
    "model.code_header": "Read the code",
    "model.code_intro": "Pick a component of `transformer/model.py`: its source on the left, and "
                        "on the right the tensors it produced when your sentence went through "
                        "the model.",
    "model.component_label": "Component",
    "model.live_shapes": "Live shapes",
    "model.make_model_caption": "`make_model` builds the modules; these are the values it was "
                                "called with (`TransformerConfig`).",
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
    "emb.odd_d_model": "d_model must be even for sine/cosine pairs; using {d_model}.",
    "emb.dims_label": "dimensions",
    "emb.curves_title": "PE for d_model = {d_model}",
    "emb.curves_caption": "With the defaults (d_model = 20, dimensions 4–7, 100 positions) this "
                          "is the Annotated Transformer's figure: each pair of dimensions is one "
                          "frequency, and the higher the dimension, the longer the wavelength.",
    "emb.table_header": "The whole table",
    "emb.table_caption": "Left columns change fast with the position, right columns slowly: like "
                         "the digits of a counter, together they give each position a unique "
                         "pattern.",
    "emb.sim_header": "Which positions look alike",
    "emb.sim_caption": "PE(p)·PE(q) is largest on the diagonal and depends only on the distance "
                       "|p − q|: nearby positions have similar codes, wherever they are in the "
                       "sentence.",
    "emb.shift_header": "Why PE(pos + k) is a linear function of PE(pos)",
    "emb.shift_text": "For one frequency w, the angle-addition formulas give "
                      "sin(w(p+k)) = sin(wp)·cos(wk) + cos(wp)·sin(wk) and "
                      "cos(w(p+k)) = cos(wp)·cos(wk) − sin(wp)·sin(wk). The factors cos(wk) and "
                      "sin(wk) depend on k only, not on p. So one matrix M_k, a 2×2 rotation for "
                      "every sine/cosine pair, moves *any* position k steps forward. This makes "
                      "relative offsets easy for a linear layer (like the attention projections) "
                      "to use.",
    "emb.k_label": "offset k",
    "emb.shift_metric": "max |M_k·PE(pos) − PE(pos+k)| over all positions",
    "emb.shift_caption": "Numerically zero: the same matrix works for every position.",
    "emb.tokens_header": "Your tokens: embedding + position",
    "emb.not_scaled": "(not scaled)",
    "emb.tokens_text": "The source tokens go through `Embeddings` (a lookup table, then {scale}: "
                       "√{d_model} = {sqrt}) and `PositionalEncoding` adds row *pos* of the "
                       "table above. Dropout then applies{dropout}",
    "emb.dropout_train": " — **train mode is on, so some values are zeroed and the rest scaled "
                         "up**.",
    "emb.dropout_eval": " (off in eval mode).",
    "emb.embedding_scaled": "embedding {scale}",
    "emb.positional_encoding": "positional encoding",
    "emb.sum_title": "sum: what the encoder gets",
    "emb.embedding_raw": "embedding (raw)",
    "emb.why_scale": "Why multiply by √d_model? The embedding table starts with small values "
                     "(about ±√(3/d_model) here); scaling brings them to the size of the "
                     "positional encoding (values in [−1, 1]) so that the position signal does "
                     "not drown out the word. Turn the scaling off in the sidebar's teaching "
                     "options to see the difference. Repeated words get the same embedding but a "
                     "different position, so their sums differ.",

    # ---- Masks page (pages/masks.py) ----
    "mask.title": "Masks",
    "mask.intro": "A mask says, for every query position, which key positions it may attend "
                  "to. In this app's code (as in the Annotated Transformer) **True / 1 means "
                  "*may attend*** and the attention does `scores.masked_fill(mask == 0, -1e9)` "
                  "before the softmax, so blocked positions get a weight of about exp(−1e9) ≈ 0. "
                  "Two masks exist: the **padding mask** hides `<pad>` tokens that only fill a "
                  "batch to equal length, and the **subsequent mask** stops the decoder from "
                  "looking at later positions.",
    "mask.sub_header": "The subsequent (look-ahead) mask",
    "mask.sub_text": "Row *i* is the decoder position that predicts the next token; it may "
                     "attend to positions 0..*i* only. During training the whole target is fed "
                     "at once (teacher forcing), so without this mask position *i* could simply "
                     "read the word it must predict at position *i*+1.",
    "mask.sub_caption": "Shape (1, {size}, {size}). The Annotated Transformer builds the same "
                        "matrix as `triu(ones, k=1) == 0`.",
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
    "mask.tgt_title": "tgt_mask[{i}]: {name}, length {n}",
    "mask.tgt_caption": "tgt_mask has shape {shape}. In the shorter sentence the padded columns "
                        "are 0 in every row; the padded rows still attend to the real tokens, "
                        "and their predictions are simply ignored by the loss.",
    "mask.heads_text": "Inside `MultiHeadedAttention`, `mask.unsqueeze(1)` adds a head axis: the "
                       "encoder's mask becomes (batch, 1, 1, src_len) and the decoder's (batch, "
                       "1, T, T). The 1s broadcast: every head, and for the encoder every query "
                       "row, uses the same mask.",
    "mask.effect_header": "What masking does to the scores and the softmax",
    "mask.effect_yours": "Decoder self-attention, layer 0, head 0, for your target:",
    "mask.effect_random": "Random scores (fix the settings above to see your own sentence's):",
    "mask.effect_text": "Without the mask every row spreads its weight over all positions, the "
                        "future included. With it, the blocked scores become −1e9, the softmax "
                        "gives them (almost exactly) 0, and the remaining weights of each row "
                        "are renormalised to sum to 1. A large negative number is used rather "
                        "than −∞ so that a row whose keys are *all* blocked does not produce "
                        "NaN:",
    "mask.all_blocked": "every key blocked",
    "mask.key_col": "key {j}",
    "mask.all_caption": "…gives uniform weights, 0.25 for each of 4 keys: all scores are "
                        "equally −1e9.",
    "mask.conv_header": "Two conventions for the same mask",
    "mask.conv_text": "Some tutorials store the opposite: **1 = masked** (hide this position), "
                      "and write `scores.masked_fill(mask == 1, -1e9)`. Their subsequent mask has "
                      "1s *above* the diagonal. Both describe the same rule; what matters is that "
                      "the mask and the `masked_fill` condition agree. PyTorch's own "
                      "`nn.MultiheadAttention` also uses True = *not allowed*.",
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
    "shapes.split_caption": "Encoder layer 0. Left: each head's output p_attn @ V, (seq, d_k) "
                            "per head. Right: the same numbers after transpose + view, (seq, "
                            "d_model), before W^O; black lines mark where one head's columns "
                            "end. The blocks are identical: concatenation only moves numbers, "
                            "and the split before attention is the same move backwards.",
    "shapes.too_many_heads": "{h} heads are too many to draw side by side; pick h ≤ 16 to see "
                             "the split.",

    # ---- Model description (explorer/introspect.py) ----
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

    # ---- Figures: architecture and parameters (explorer/figures/architecture.py) ----
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
    "fig.attention.mask_dec": "tgt_mask: padding and future positions",
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
    "fig.masks.scores": "scores",
    "fig.masks.softmax_without": "softmax without mask",
    "fig.masks.softmax_with": "softmax with mask",

    # ---- Figures: positional encoding (explorer/figures/positions.py) ----
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

    # ---- Figures: training (explorer/figures/training.py) ----
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
    "sidebar.preset": "Model size",
    "sidebar.preset_help": "tiny trains in seconds; paper base is the paper's N=6, "
                           "d_model=512.",
    "sidebar.preset_custom": "custom",
    "sidebar.N": "N (layers)",
    "sidebar.h": "h (heads)",
    "sidebar.seed": "seed (initial weights)",
    "sidebar.teaching": "Teaching options",
    "sidebar.norm_placement": "LayerNorm placement",
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
    "attn.train_mode": " · **train mode: dropout is on**: the weights shown are before "
                       "dropout, and each rerun draws a new random dropout pattern for "
                       "everything after them",
    "attn.too_many": "{N} layers × {h} heads × {q} × {k} tokens is too many cells to draw one "
                     "heatmap per head, so the grid shows the mean of the heads. The focus "
                     "view below shows any single head.",
    "attn.upper_triangle": "The upper triangle is empty: the subsequent mask stops each "
                           "position from looking at later ones, so the decoder cannot peek "
                           "at the word it must predict.",
    "attn.focus_header": "One head, step by step",
    "attn.layer": "Layer",
    "attn.head": "Head",
    "attn.step1": "**1. Project and split.** The layer's input goes through `linears[0..2]` "
                  "(d_model → d_model) and is cut into {h} heads of d_k = {d_k}. This head's "
                  "slice:",
    "attn.step2": "**2. Scores** `Q @ Kᵀ / √d_k`, with √d_k = {sqrt_dk}. Dividing keeps the "
                  "scores from growing with d_k, which would make the softmax saturate.",
    "attn.scores_title": "scores ({shape})",
    "attn.masked_title": "masked scores: blank = -1e9 ({n} blocked)",
    "attn.step3": "**3. Softmax** over each row turns scores into weights that sum to 1; a "
                  "blocked position gets exp(-1e9) ≈ 0.",
    "attn.weights_title": "weights p_attn ({shape})",
    "attn.z_title": "4. weighted sum p_attn @ V ({shape})",
    "attn.step5": "**5. Concatenate and mix.** The {h} heads' outputs (each {q} × {d_k}) are "
                  "put side by side into {q} × {d_model} and multiplied by W^O "
                  "(`linears[3]`). See the Shapes page for every tensor of this pass.",
    "attn.npz": "Download every captured tensor of this run (.npz)",
    "attn.npz_help": "One array per hook point (names as on the Shapes page), plus the "
                     "tokens; open with numpy.load(path). Every chart has its own PNG "
                     "download: the camera icon in its toolbar.",
}
