"""Train a masked PPO policy (CleanRL-style, PyTorch) against the `simple` bot on the batched
environment, and ship it as the `learned` bot's weights.

Needs the ``learn`` extra (``pip install -e '.[learn]'``, which brings PyTorch). Every step
plays all ``--num-envs`` games at once; illegal actions get a logit of -1e9, so the policy
only ever samples legal ones. The agent sits in a random seat each game. It writes:

- the weights (``--out``, default: the `learned` bot's own file), read back in NumPy by
  :class:`pickomino.bots.learned.Policy`;
- the learning curve (``--curve``, CSV and PNG): the sampling policy's win share in the
  games that ended during each update, and every ``--eval-every`` updates the greedy
  policy's, against environment steps;
- with ``--evaluate GAMES``, the shipped greedy bot's tournaments against ``random``,
  ``simple`` and ``expected`` (``learned_results.json`` beside the curve).

The command that made the shipped bot is in docs/learning.md ("A learned bot").

Run: ``.venv/bin/python scripts/train_ppo.py [--minutes 10] [--seed 1] [--evaluate 4000]``
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from pickomino.bots.learned import WEIGHTS, Policy
from pickomino.core import NUM_ACTIONS
from pickomino.envs.batched.bots import BATCHED_BOTS
from pickomino.envs.batched.vector import PickominoBatchedEnv
from pickomino.files import unwritable
from pickomino.observation import flat_size, flatten_batch


def layer(inputs: int, outputs: int, std: float = 2**0.5) -> nn.Linear:
    linear = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    """Separate actor and critic MLPs with tanh layers, as in CleanRL's PPO."""

    def __init__(self, inputs: int, hidden: int) -> None:
        super().__init__()
        self.actor = nn.Sequential(
            layer(inputs, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
            layer(hidden, NUM_ACTIONS, 0.01),
        )  # fmt: skip
        self.critic = nn.Sequential(
            layer(inputs, hidden),
            nn.Tanh(),
            layer(hidden, hidden),
            nn.Tanh(),
            layer(hidden, 1, 1.0),
        )

    def policy(self, x: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(x).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def export(self, players: int) -> Policy:
        linears = [m for m in self.actor if isinstance(m, nn.Linear)]
        layers = [
            (m.weight.detach().numpy().T.astype(np.float32), m.bias.detach().numpy())
            for m in linears
        ]
        return Policy(layers, players)


def observe(observations: dict[str, np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    return (
        torch.from_numpy(flatten_batch(observations)),
        torch.from_numpy(observations["action_mask"] == 1),
    )


def lead(worms: np.ndarray) -> np.ndarray:
    """The agent's worm lead over the best other player (seats rotated: index 0 is the agent)."""
    return (worms[:, 0] - worms[:, 1:].max(axis=1)).astype(np.float32)


def imitate(agent: Agent, envs: PickominoBatchedEnv, args: argparse.Namespace) -> None:
    """Warm start: fit the actor to the decisions of a batched bot (``args.imitate_bot``)
    playing the agent's seat for ``args.imitate`` steps (behaviour cloning, cross-entropy), so
    that PPO starts from a policy that already wins games instead of from random play."""
    rng = np.random.default_rng(args.seed)
    teacher = BATCHED_BOTS[args.imitate_bot]
    observations, _ = envs.reset(seed=args.seed)
    xs, masks, targets = [], [], []
    for _ in range(max(1, args.imitate // envs.num_envs)):
        action = teacher(envs.games, np.arange(envs.num_envs), rng)
        x, mask = observe(observations)
        xs.append(x)
        masks.append(mask)
        targets.append(torch.from_numpy(action))
        observations, *_ = envs.step(action)
    x, mask, target = torch.cat(xs), torch.cat(masks), torch.cat(targets)
    optimizer = torch.optim.Adam(agent.actor.parameters(), lr=1e-3)
    for epoch in range(args.imitate_epochs):
        for chunk in torch.randperm(len(x)).split(4096):
            loss = -agent.policy(x[chunk], mask[chunk]).log_prob(target[chunk]).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            agree = (agent.policy(x, mask).probs.argmax(axis=1) == target).float().mean()
        print(f"imitation epoch {epoch + 1}: loss {loss.item():.3f}, agrees {agree:.1%}")


def train(args: argparse.Namespace) -> list[tuple[int, float, float, int]]:
    """Train until the time budget is spent; returns the curve rows
    (steps, seconds, win share, games ended in that update)."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env_reward = "worms" if args.reward == "lead" else args.reward  # lead: worked out here
    envs = PickominoBatchedEnv(
        args.num_envs, args.players, args.opponents, args.rules, env_reward, seat=None
    )
    agent = Agent(flat_size(args.players), args.hidden)
    if args.imitate:
        imitate(agent, envs, args)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t = args.num_envs, args.rollout
    xs = torch.zeros((t, n, flat_size(args.players)))
    masks = torch.zeros((t, n, NUM_ACTIONS), dtype=torch.bool)
    actions = torch.zeros((t, n), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((t, n)) for _ in range(4))
    observations, _ = envs.reset(seed=args.seed)
    x, mask = observe(observations)
    before = lead(observations["worms"])
    done = torch.zeros(n)
    curve: list[tuple[int, float, float, int, float]] = []
    judge = PickominoBatchedEnv(args.eval_games, args.players, args.opponents, args.rules)
    best: tuple[float, Policy | None] = (-1.0, None)
    start, steps = time.perf_counter(), 0
    while time.perf_counter() - start < args.minutes * 60 and len(curve) < args.updates:
        shares: list[float] = []
        for step in range(t):
            xs[step], masks[step], dones[step] = x, mask, done
            with torch.no_grad():
                dist = agent.policy(x, mask)
                action = dist.sample()
                logprobs[step], values[step] = dist.log_prob(action), agent.value(x)
            actions[step] = action
            observations, reward, terminated, _, infos = envs.step(action.numpy())
            if args.reward == "lead":
                reward = lead_reward(observations, terminated, infos, before, args.win_bonus)
                before = lead(observations["worms"])
            rewards[step] = torch.from_numpy(reward).float()
            done = torch.from_numpy(terminated).float()
            x, mask = observe(observations)
            if terminated.any():
                shares += infos["win_share"][terminated].tolist()
        steps += n * t
        with torch.no_grad():  # generalised advantage estimation
            advantages = torch.zeros((t, n))
            last, next_value = torch.zeros(n), agent.value(x)
            for step in reversed(range(t)):
                if step == t - 1:
                    go_on, following = 1.0 - done, next_value
                else:
                    go_on, following = 1.0 - dones[step + 1], values[step + 1]
                delta = rewards[step] + args.gamma * following * go_on - values[step]
                last = delta + args.gamma * args.lam * go_on * last
                advantages[step] = last
            returns = advantages + values
        flat = (xs.reshape(-1, xs.shape[-1]), masks.reshape(-1, NUM_ACTIONS), actions.reshape(-1))
        old_logprobs, flat_adv, flat_ret = (
            logprobs.reshape(-1),
            advantages.reshape(-1),
            returns.reshape(-1),
        )
        batch = n * t
        learn_policy = len(curve) >= args.critic_warmup  # let the critic catch up first
        for _ in range(args.epochs):
            order = torch.randperm(batch)
            for chunk in order.split(batch // args.minibatches):
                dist = agent.policy(flat[0][chunk], flat[1][chunk])
                ratio = (dist.log_prob(flat[2][chunk]) - old_logprobs[chunk]).exp()
                adv = flat_adv[chunk]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                value_loss = 0.5 * (agent.value(flat[0][chunk]) - flat_ret[chunk]).pow(2).mean()
                loss = args.vf * value_loss
                if learn_policy:
                    loss = loss + policy_loss - args.ent * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        elapsed = time.perf_counter() - start
        share = float(np.mean(shares)) if shares else float("nan")
        greedy = float("nan")
        if args.eval_every and len(curve) % args.eval_every == 0:
            greedy = greedy_share(agent, judge, args.seed)
            if args.keep_best and greedy > best[0]:
                best = (greedy, agent.export(args.players))
        curve.append((steps, elapsed, share, len(shares), greedy))
        print(
            f"{steps:>11,} steps {elapsed:7.0f} s  win share {share:6.1%} ({len(shares)} games)"
            + (f", greedy {greedy:6.1%}" if greedy == greedy else "")
        )
    if best[1] is not None:
        print(f"keeping the greedy check's best policy: {best[0]:.1%}")
        best[1].save(args.out)
    else:
        agent.export(args.players).save(args.out)
    return curve


def greedy_share(agent: Agent, envs: PickominoBatchedEnv, seed: int) -> float:
    """The greedy policy's win share in one game per environment, the same deals each time
    (a random seat each), so that successive values differ by the policy, not the dice."""
    observations, _ = envs.reset(seed=seed)
    shares = np.full(envs.num_envs, np.nan)
    while np.isnan(shares).any():
        x, mask = observe(observations)
        with torch.no_grad():
            action = agent.policy(x, mask).probs.argmax(axis=1)
        observations, _, terminated, _, infos = envs.step(action.numpy())
        first = terminated & np.isnan(shares)
        if first.any():
            shares[first] = infos["win_share"][first]
    return float(shares.mean())


def lead_reward(
    observations: dict[str, np.ndarray],
    terminated: np.ndarray,
    infos: dict,
    before: np.ndarray,
    win_bonus: float,
) -> np.ndarray:
    """The change in the agent's worm lead since its last decision; a game that ended adds
    ``win_bonus`` times (2 x win share - 1): + for a win, - for a loss, 0 for a 2-way tie.
    The lead telescopes to the final margin, so this shapes towards winning by much."""
    worms = observations["worms"].copy()
    reward = np.zeros(len(worms), np.float32)
    if terminated.any():
        rows = np.flatnonzero(terminated)
        worms[rows] = np.stack([infos["final_obs"][row]["worms"] for row in rows])
        reward[rows] = win_bonus * (2 * infos["win_share"][rows] - 1)
    reward += lead(worms) - before
    return reward


def evaluate(games: int, seed: int, jobs: int) -> dict[str, dict[str, object]]:
    """The shipped greedy bot against random, simple and expected in seat-rotated 2-player
    tournaments (as ``pickomino tournament --bots learned,X``): each record's win share and
    95% interval."""
    from pickomino.sim.tournament import run_tournament

    results = {}
    for other in ("random", "simple", "expected"):
        result = run_tournament(["learned", other], 2, games, seed, jobs=jobs)
        record, theirs = result.bots["learned"], result.bots[other]
        results[other] = record.to_dict() | {"other_mean_worms": theirs.to_dict()["mean_worms"]}
        low, high = record.ci95
        print(
            f"learned vs {other:8}: {record.win_share:6.1%} [{low:.1%}, {high:.1%}] over"
            f" {games} games; worms {record.worms / games:.1f} / {theirs.worms / games:.1f}"
        )
    return results


def csv_path(curve: Path) -> Path:
    """The learning curve's table, beside its picture."""
    return curve.with_suffix(".csv")


def results_path(curve: Path) -> Path:
    """Where ``--evaluate`` writes the tournaments' results: beside the curve."""
    return curve.with_name("learned_results.json")


def save_curve(
    curve: list[tuple[int, float, float, int, float]], path: Path, opponents: str
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with csv_path(path).open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["steps", "seconds", "win_share", "games", "greedy_win_share"])
        writer.writerows(curve)
    steps = np.array([row[0] for row in curve])
    share = np.array([row[2] for row in curve])
    window = max(1, len(share) // 40)
    smooth = np.convolve(share, np.ones(window) / window, mode="valid")
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(steps, share, alpha=0.3, label="sampling policy, per update")
    axes.plot(steps[window - 1 :], smooth, label=f"sampling policy, mean of {window} updates")
    greedy = np.array([row[4] for row in curve])
    judged = ~np.isnan(greedy)
    if judged.any():
        axes.plot(steps[judged], greedy[judged], "o-", markersize=3, label="greedy policy")
    axes.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    axes.set_xlabel("agent steps")
    axes.set_ylabel(f"win share against {opponents}")
    axes.set_ylim(0, 1)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path.with_suffix(".png"), dpi=100)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time budget")
    parser.add_argument("--updates", type=int, default=10**9, help="stop after this many")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="simple")
    parser.add_argument("--rules", default="official")
    parser.add_argument(
        "--reward",
        default="lead",
        choices=["worms", "win", "lead"],
        help="worms: own worm gain; win: +share/-1 at the end; lead: gain in worm lead"
        " over the best other player, plus --win-bonus at the end",
    )
    parser.add_argument("--win-bonus", type=float, default=5.0, help="with --reward lead")
    parser.add_argument("--num-envs", type=int, default=512)
    parser.add_argument("--rollout", type=int, default=64, help="steps per env per update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=8)
    parser.add_argument("--ent", type=float, default=0.01)
    parser.add_argument("--vf", type=float, default=0.5)
    parser.add_argument("--imitate", type=int, default=0, help="warm-start decisions to copy")
    parser.add_argument(
        "--imitate-bot", default="simple", choices=sorted(BATCHED_BOTS), help="whom to copy"
    )
    parser.add_argument("--imitate-epochs", type=int, default=10)
    parser.add_argument(
        "--critic-warmup", type=int, default=0, help="updates that train only the critic"
    )
    parser.add_argument(
        "--evaluate",
        type=int,
        default=0,
        metavar="GAMES",
        help="then play the shipped bot against random, simple and expected (needs --out left"
        " at its default) and write the results beside the curve",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes for --evaluate")
    parser.add_argument(
        "--eval-every", type=int, default=20, help="updates between greedy checks (0: none)"
    )
    parser.add_argument("--eval-games", type=int, default=2048, help="games per greedy check")
    parser.add_argument(
        "--keep-best",
        action="store_true",
        help="save the policy of the best greedy check rather than the last (early stopping)",
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--curve", type=Path, default=Path("docs/learning_curve.png"))
    args = parser.parse_args(argv)
    if args.evaluate and args.out.resolve() != WEIGHTS.resolve():
        parser.error("--evaluate plays the shipped bot: leave --out at its default")
    outputs = [("--out", args.out), ("--curve", args.curve), ("--curve", csv_path(args.curve))]
    if args.evaluate:
        outputs.append(("--curve", results_path(args.curve)))
    for option, path in outputs:  # before minutes of training, not after
        if why := unwritable(path):
            parser.error(f"{option}: {why}")
    curve = train(args)
    save_curve(curve, args.curve, args.opponents)
    print(f"weights: {args.out}; curve: {args.curve} and {csv_path(args.curve)}")
    if args.evaluate:
        results = evaluate(args.evaluate, args.seed, args.jobs)
        path = results_path(args.curve)
        path.write_text(
            json.dumps(
                {
                    "command": vars(args) | {"out": str(args.out), "curve": str(args.curve)},
                    "results": results,
                },
                indent=1,
            )
        )
        print(f"results: {path}")


if __name__ == "__main__":
    main()
