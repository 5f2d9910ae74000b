"""A small deep Q-network on the CPU (PyTorch), with the MIGO paper's settings.

γ = 0.8, L2 regularisation 0.01, soft target-network updates at rate 0.01,
ε-greedy exploration decaying linearly from 0.6 to 0.1 (over ``decay_games``).
The board is encoded per cell as (mine, theirs); one output per move of a fixed
move table (cells for noughts-and-crosses, (from, to) pairs for Hexapawn), masked
to the legal moves. Transitions of each game go to a replay buffer and the
network trains on minibatches after every game.
"""

from __future__ import annotations

import random
from collections import deque


def _torch():
    from games.extras import require

    return require("torch", "dqn", "the DQN learner")


class DQNLearner:
    name = "DQN"

    def __init__(self, game, seed: int = 0, gamma: float = 0.8, l2: float = 0.01,
                 tau: float = 0.01, epsilon: tuple[float, float] = (0.6, 0.1),
                 decay_games: int = 300, hidden: int = 64, lr: float = 1e-3,
                 batch: int = 32, buffer: int = 5000, updates_per_game: int = 8) -> None:
        torch = _torch()
        torch.manual_seed(seed)
        torch.set_num_threads(1)
        self.torch = torch
        self.game = game
        self.rng = random.Random(seed)
        self.gamma, self.tau, self.batch, self.updates = gamma, tau, batch, updates_per_game
        self.eps0, self.eps1 = epsilon
        self.decay_games = decay_games
        self.games = 0
        board = game.rules.initial_board()
        self.cells = len(board)
        self.action_index = self._action_table(board)
        n_in, n_out = 2 * self.cells, len(self.action_index)

        def net():
            return torch.nn.Sequential(torch.nn.Linear(n_in, hidden), torch.nn.ReLU(),
                                       torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
                                       torch.nn.Linear(hidden, n_out))
        self.q, self.target = net(), net()
        self.target.load_state_dict(self.q.state_dict())
        self.optimiser = torch.optim.Adam(self.q.parameters(), lr=lr, weight_decay=l2)
        self.memory: deque = deque(maxlen=buffer)

    def _action_table(self, board) -> dict:
        n = self.cells
        sample = self.game.rules.moves(board, 0)
        if sample and isinstance(sample[0], tuple):
            return {(a, b): a * n + b for a in range(n) for b in range(n)}
        return {a: a for a in range(n)}

    def _encode(self, key):
        board, player = key
        mine, theirs = (1, 2) if player == 0 else (2, 1)
        return [1.0 if v == mine else 0.0 for v in board] + [
            1.0 if v == theirs else 0.0 for v in board]

    def _legal_mask(self, key):
        moves = self.game.rules.moves(*key)
        mask = [False] * len(self.action_index)
        for m in moves:
            mask[self.action_index[m]] = True
        return moves, mask

    def epsilon(self) -> float:
        frac = min(1.0, self.games / max(1, self.decay_games))
        return self.eps0 + (self.eps1 - self.eps0) * frac

    def __call__(self, state):
        key = state.key()
        moves, _ = self._legal_mask(key)
        if self.rng.random() < self.epsilon():
            return moves[self.rng.randrange(len(moves))]
        torch = self.torch
        with torch.no_grad():
            values = self.q(torch.tensor([self._encode(key)]))[0]
        return max(moves, key=lambda m: float(values[self.action_index[m]]))

    def learn(self, trajectory, outcome: int) -> None:
        self.games += 1
        for i, (key, action) in enumerate(trajectory):
            last = i == len(trajectory) - 1
            nxt = None if last else trajectory[i + 1][0]
            self.memory.append((key, self.action_index[action], float(outcome) if last else 0.0,
                                nxt))
        for _ in range(self.updates):
            self._update()

    def _update(self) -> None:
        torch = self.torch
        if len(self.memory) < self.batch:
            return
        sample = self.rng.sample(list(self.memory), self.batch)
        states = torch.tensor([self._encode(k) for k, _, _, _ in sample])
        actions = torch.tensor([a for _, a, _, _ in sample])
        rewards = torch.tensor([r for _, _, r, _ in sample])
        targets = rewards.clone()
        with torch.no_grad():
            for i, (_, _, _, nxt) in enumerate(sample):
                if nxt is not None:
                    _, mask = self._legal_mask(nxt)
                    values = self.target(torch.tensor([self._encode(nxt)]))[0]
                    values[~torch.tensor(mask)] = -float("inf")
                    targets[i] = self.gamma * values.max()
        predicted = self.q(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        loss = torch.nn.functional.smooth_l1_loss(predicted, targets)
        self.optimiser.zero_grad()
        loss.backward()
        self.optimiser.step()
        with torch.no_grad():
            for p, tp in zip(self.q.parameters(), self.target.parameters()):
                tp.mul_(1 - self.tau).add_(self.tau * p)
