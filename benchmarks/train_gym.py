"""A worked training example: REINFORCE in ``gym_env`` against the simple bots (docs/ai.md).

Run: ``.venv/bin/python benchmarks/train_gym.py [--train N] [--eval N] [--seed S]`` (needs
the ``ai`` extra; numpy only, no deep-learning library).

The policy is a linear softmax over the legal actions: the logits are ``features @ W`` (one
column of ``W`` per action id), the actions the mask forbids get probability 0. The features
are read off the observation tensor alone (docs/ai.md's layout): a bias, the phase, the shape
of the hand (the most cards of one rank, pairs, a pair of jacks or better to open, the most
cards of one suit), the cards the player may change, and the pot, the bet to match and the
player's stack as fractions of the table's chips. REINFORCE with a running-mean baseline: the
episode's reward (chips won or lost) times the gradient of each action's log-probability.

Then the trained policy, and a uniform random policy over the legal actions, each play the
same ``--eval`` episodes (the same reset seeds: the same cards, seats and bots' seeds) and
the report prints each one's mean chips per episode with a 95% confidence interval, and the
paired difference.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from italian_poker.ai import gym_env
from italian_poker.ai.config import game_config
from italian_poker.ai.observation import tensor_pieces
from italian_poker.analysis.bots import make_bot

Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]
"""Observation and mask -> an action id."""


class Features:
    """The features of an observation tensor, by the offsets of docs/ai.md's pieces."""

    def __init__(self, players: int, chips: int) -> None:
        pieces = tensor_pieces(game_config({"players": players}), perfect_recall=False)
        self.at: dict[str, slice] = {}
        offset = 0
        for name, shape in pieces:
            width = int(np.prod(shape))
            self.at[name] = slice(offset, offset + width)
            offset += width
        self.players = players
        self.chips = float(chips)
        self.size = len(self(np.zeros(offset, np.float32)))

    def __call__(self, obs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        at = self.at
        me = int(np.argmax(obs[at["player"]]))
        hand = obs[at["hand"]].reshape(13, 4)  # Card.index = 4 * rank + suit
        ranks, suits = hand.sum(axis=1), hand.sum(axis=0)
        most = int(ranks.max())
        pairs = int((ranks == 2).sum())
        openers = float(ranks[9:].max() >= 2)  # J, Q, K, A: ranks 9 to 12 (2 is rank 0)
        stack = obs[at["stack"]][me] / self.chips
        to_match = (obs[at["current_bet"]][0] - obs[at["round_bet"]][me]) / self.chips
        return np.concatenate(
            [
                [1.0],
                obs[at["phase"]],
                np.eye(5)[most],
                np.eye(3)[min(pairs, 2)],
                [openers, float(suits.max() >= 4), float(ranks.sum() == 0)],
                [obs[at["pot"]][0] / self.chips, to_match, stack],
            ]
        ).astype(np.float64)


def softmax(logits: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The probabilities of the legal actions (0 for the others)."""
    masked = np.where(mask > 0, logits, -np.inf)
    exp = np.exp(masked - masked.max())
    return exp / exp.sum()


def train(
    episodes: int, seed: int, opponents: tuple[str, ...], lr: float
) -> tuple[np.ndarray[Any, Any], Features]:
    """The weights REINFORCE learns in ``episodes`` episodes."""
    env = gym_env(opponents, bot_factory=make_bot)
    features = Features(env.players, env.table.game.config.total_chips)
    weights = np.zeros((features.size, env.action_space.n))
    rng = np.random.default_rng(seed)
    baseline = 0.0
    obs, info = env.reset(seed=seed)
    for episode in range(episodes):
        if episode:
            obs, info = env.reset()
        grads = np.zeros_like(weights)
        done = False
        reward = 0.0
        while not done:
            x = features(obs)
            p = softmax(x @ weights, info["action_mask"])
            action = int(rng.choice(len(p), p=p))
            grad = -p
            grad[action] += 1.0
            grads += np.outer(x, grad)
            obs, reward, done, _, info = env.step(action)
        weights += lr * (reward - baseline) * grads
        baseline += 0.01 * (reward - baseline)
    return weights, features


def evaluate(policy: Policy, episodes: int, seed: int, opponents: tuple[str, ...]) -> list[float]:
    """The chips ``policy`` wins in each of ``episodes`` episodes (reset seeds ``seed``,
    ``seed + 1``, ...)."""
    env = gym_env(opponents, bot_factory=make_bot)
    rewards = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        done = False
        reward = 0.0
        while not done:
            obs, reward, done, _, info = env.step(policy(obs, info["action_mask"]))
        rewards.append(reward)
    return rewards


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    data = np.asarray(values, np.float64)
    return float(data.mean()), 1.96 * float(data.std(ddof=1)) / math.sqrt(len(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=20000, help="training episodes")
    parser.add_argument("--eval", type=int, default=4000, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--opponents", default="simple,simple,simple")
    args = parser.parse_args()
    opponents = tuple(args.opponents.split(","))
    start = time.perf_counter()
    weights, features = train(args.train, args.seed, opponents, args.lr)
    trained_s = time.perf_counter() - start
    rng = np.random.default_rng(args.seed + 1)

    def learned(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        p = softmax(features(obs) @ weights, mask)
        return int(rng.choice(len(p), p=p))

    def uniform(obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    start = time.perf_counter()
    eval_seed = 10**6 + args.seed
    ours = evaluate(learned, args.eval, eval_seed, opponents)
    theirs = evaluate(uniform, args.eval, eval_seed, opponents)
    eval_s = time.perf_counter() - start
    print(
        f"gym_env: 1 learning seat (rotating) against {', '.join(opponents)}; "
        f"stack 100, ante 1, one deal per episode"
    )
    print(f"trained REINFORCE (linear softmax, {features.size} features x 92 actions):")
    print(f"  {args.train} episodes in {trained_s:.0f} s")
    print(f"evaluation over {args.eval} episodes (the same seeds for both), chips per episode:")
    for name, rewards in (("REINFORCE", ours), ("uniform random", theirs)):
        mean, half = interval(rewards)
        print(f"  {name:<15} {mean:+7.2f} ± {half:.2f} (95% CI)")
    mean, half = interval([a - b for a, b in zip(ours, theirs, strict=True)])
    print(f"  difference      {mean:+7.2f} ± {half:.2f} (95% CI, paired)   [{eval_s:.0f} s]")


if __name__ == "__main__":
    main()
