"""The alarm of ``--timeout`` for the engines that cannot stop at a deadline of their own
(:func:`deadline`, :class:`TimeUp`: :func:`excover.deadlines.alarm`, under the name the
commands know it by). The run's deadline itself is fixed once, when its options are read
(:attr:`excover.cli.options.RunOptions.deadline`): every part of the run (reading and
building the problem, searching, printing) spends from that one budget.
"""

from __future__ import annotations

from excover.deadlines import ALARM_REPEAT as ALARM_REPEAT
from excover.deadlines import TimeUp as TimeUp
from excover.deadlines import alarm

__all__ = ["ALARM_REPEAT", "TimeUp", "deadline"]

#: The alarm under the name the commands know it by.
deadline = alarm
