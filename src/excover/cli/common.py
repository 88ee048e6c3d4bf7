"""The conventions every ``excover`` subcommand shares, written once: one import for them
all, each kept in the module of its job.

* the parser (:mod:`excover.cli.parser`): :class:`Parser`, whose errors suggest the
  nearest spelling, :class:`HelpFormatter`, help laid out by hand,
  :func:`add_command`, which adds a subcommand's parser so made, and
  :func:`version_action`, that of ``--version``;
* the shared flags (:mod:`excover.cli.flags`): the table :data:`SEARCH_FLAGS` and the
  helpers that add a flag (``add_input``, ``add_method``, ``add_limits``, ``add_flag``,
  ...) or refuse one (:func:`add_refused`, :func:`refuse`), with their argparse types
  (:mod:`excover.cli.argtypes`); ``--method`` defaults to ``auto`` as in the API;
* input and output files (:mod:`excover.cli.files`): a path, or ``-`` for standard
  input (:func:`read_input`); ``--svg`` and ``--write-dlx`` files (:func:`write_file`,
  :func:`write_problem`, :func:`write_dlx`);
* what a run reads of its flags once, at the edge, is :mod:`excover.cli.options`'
  (:class:`~excover.cli.options.RunOptions`, handed to everything that prints the run's
  output), imported when a command runs;
* ``--limit N`` stops after N solutions (listed or counted: the result is then partial,
  ``complete`` false), ``--timeout S`` after S seconds of wall-clock time from the start
  of the command (:attr:`~excover.cli.options.RunOptions.deadline`; the alarm of the
  engines that cannot stop at a deadline of their own, :mod:`excover.cli.clock`:
  :func:`deadline`) and ``--max-nodes N`` after N search nodes;
  ``--max-memory SIZE`` (:func:`add_max_memory`, on the commands that take ``--method
  zdd``) bounds the memory of the ZDD method;
* ``--json`` prints one document of the schema of results (:mod:`excover.documents`,
  which the studio shares: ``schema.json``, version :data:`SCHEMA_VERSION`, built by
  :func:`document` or streamed by :class:`JsonStream`);
* how a run ends (:mod:`excover.cli.status`): its exit status (:func:`exit_status`:
  0 done, 1 a result cut short, 2 bad usage or input, 3 a resource limit, 130 Ctrl-C,
  141 the reader of stdout left) and the lines on stderr that tell how it went
  (:func:`error_line`: an error's).

These modules import nothing heavy: building the whole parser must stay cheap, because
``excover --version`` and a count of a tiny file are meant to start as fast as Python.
"""

from __future__ import annotations

from excover.cli.argtypes import memory_size as memory_size
from excover.cli.argtypes import non_negative_int as non_negative_int
from excover.cli.argtypes import positive_int as positive_int
from excover.cli.argtypes import seconds as seconds
from excover.cli.argtypes import workers_count as workers_count
from excover.cli.clock import ALARM_REPEAT as ALARM_REPEAT
from excover.cli.clock import TimeUp as TimeUp
from excover.cli.clock import deadline as deadline
from excover.cli.files import decode_input as decode_input
from excover.cli.files import numbered as numbered
from excover.cli.files import read_input as read_input
from excover.cli.files import write_dlx as write_dlx
from excover.cli.files import write_file as write_file
from excover.cli.files import write_problem as write_problem
from excover.cli.flags import METHODS as METHODS
from excover.cli.flags import SEARCH_FLAGS as SEARCH_FLAGS
from excover.cli.flags import Container as Container
from excover.cli.flags import Flag as Flag
from excover.cli.flags import Refused as Refused
from excover.cli.flags import add_board_flags as add_board_flags
from excover.cli.flags import add_flag as add_flag
from excover.cli.flags import add_input as add_input
from excover.cli.flags import add_json as add_json
from excover.cli.flags import add_limits as add_limits
from excover.cli.flags import add_max_memory as add_max_memory
from excover.cli.flags import add_method as add_method
from excover.cli.flags import add_progress as add_progress
from excover.cli.flags import add_quiet as add_quiet
from excover.cli.flags import add_refused as add_refused
from excover.cli.flags import add_svg as add_svg
from excover.cli.flags import add_workers as add_workers
from excover.cli.flags import add_write_dlx as add_write_dlx
from excover.cli.flags import check_refused as check_refused
from excover.cli.flags import given as given
from excover.cli.flags import refuse as refuse
from excover.cli.parser import HelpFormatter as HelpFormatter
from excover.cli.parser import Parser as Parser
from excover.cli.parser import add_command as add_command
from excover.cli.parser import did_you_mean as did_you_mean
from excover.cli.parser import terminal_columns as terminal_columns
from excover.cli.parser import version_action as version_action
from excover.cli.status import EPILOG_SHORT as EPILOG_SHORT
from excover.cli.status import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE
from excover.cli.status import EXIT_INTERRUPT as EXIT_INTERRUPT
from excover.cli.status import EXIT_LIMIT as EXIT_LIMIT
from excover.cli.status import EXIT_OK as EXIT_OK
from excover.cli.status import EXIT_RESOURCE as EXIT_RESOURCE
from excover.cli.status import EXIT_USAGE as EXIT_USAGE
from excover.cli.status import STOP_CAUSES as STOP_CAUSES
from excover.cli.status import STOPS as STOPS
from excover.cli.status import error_line as error_line
from excover.cli.status import exit_status as exit_status
from excover.cli.status import exit_statuses as exit_statuses
from excover.cli.status import say_cpu as say_cpu
from excover.cli.status import say_method as say_method
from excover.cli.status import say_route as say_route
from excover.cli.status import say_stopped as say_stopped
from excover.documents import SCHEMA_VERSION as SCHEMA_VERSION
from excover.documents import JsonStream as JsonStream
from excover.documents import document as document
from excover.documents import exact as exact
from excover.documents import schema as schema
