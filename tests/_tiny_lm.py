"""A tokenizer and a language model small enough to make in a test: a word-level
vocabulary and a one-layer LLaMA of 16 dimensions with random weights (the
rewards' tests: test_rewards_trl.py, test_rewards_openrlhf.py). Nothing is
downloaded; transformers, tokenizers and torch are imported by the caller's
``pytest.importorskip``."""
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

WORDS = "the a cat cats dog dogs sat ran on mat fast home summarize : .".split()
SPECIAL = {"<pad>": 0, "<eos>": 1, "<unk>": 2}


def tiny_tokenizer():
    """A fast tokenizer of ``WORDS`` (split on whitespace and punctuation,
    decoded with spaces between words) with special tokens <pad>, <eos>, <unk>."""
    import tokenizers
    import transformers
    vocab = dict(SPECIAL)
    for word in WORDS:
        vocab.setdefault(word, len(vocab))
    word_level = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab=vocab,
                                                                  unk_token="<unk>"))
    word_level.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    word_level.decoder = tokenizers.decoders.WordPiece(prefix="##")
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=word_level, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")


def tiny_model(vocab_size, seed=0):
    """A one-layer LLaMA of 16 dimensions, its weights drawn with ``seed``."""
    import torch
    import transformers
    torch.manual_seed(seed)
    config = transformers.LlamaConfig(
        vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64,
        pad_token_id=SPECIAL["<pad>"], eos_token_id=SPECIAL["<eos>"],
        bos_token_id=SPECIAL["<eos>"])
    return transformers.LlamaForCausalLM(config)
