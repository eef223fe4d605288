"""The ``drunter`` command line. The only layer that prints or touches files."""
from __future__ import annotations

import click

from .common import run_group
from .adjudicate import adjudicate
from .board import board
from .fmt import fmt
from .report import report
from .rules import rules
from .simulate import simulate
from .validate import validate


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
