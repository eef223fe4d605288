"""The ``drunter`` command line. The only layer that prints or touches files."""
from __future__ import annotations

import click

from drunter_notation.cli.common import run_group
from drunter_notation.cli.adjudicate import adjudicate
from drunter_notation.cli.board import board
from drunter_notation.cli.fmt import fmt
from drunter_notation.cli.report import report
from drunter_notation.cli.rules import rules
from drunter_notation.cli.simulate import simulate
from drunter_notation.cli.validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="drunter-notation")
def cli():
    """drunter: rules checker, replay engine and reports for Drunter & Drueber (DN records)."""


cli.add_command(adjudicate)
cli.add_command(board)
cli.add_command(fmt)
cli.add_command(report)
cli.add_command(rules)
cli.add_command(simulate)
cli.add_command(validate)


def main():
    run_group(cli)
