"""examples/tour.ipynb runs from top to bottom in a fresh kernel, and its objects show
as HTML tables and pictures (the displays of :mod:`excover.display` and the tilings').

The notebook is executed by nbclient in a new IPython kernel (ipykernel, the same
Python as the suite's, with its working directory in ``examples/``), each cell within
:data:`CELL_SECONDS`; the test checks that every code cell ran without an error and
that the outputs hold the displays the notebook's text promises.
"""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "tour.ipynb"

#: The most seconds one cell may take (the whole notebook takes a few on a quiet machine;
#: this is a bound against a hang, not a measure).
CELL_SECONDS = 120


def test_the_tour_runs_and_shows_tables_and_pictures() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)  # type: ignore[no-untyped-call]
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        "examples/tour.ipynb is kept without outputs"
    )
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_SECONDS,
        startup_timeout=CELL_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.execution_count is not None for cell in code)
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert not errors, "\n".join(f"{o.ename}: {o.evalue}" for o in errors)
    shown = [
        output.data
        for cell in code
        for output in cell.outputs
        if output.output_type in ("execute_result", "display_data")
    ]
    # every cell ends with an object to show, and each shows as HTML or a picture
    assert len(shown) == len(code)
    assert all("text/html" in data or "image/svg+xml" in data for data in shown)
    html = "".join(data.get("text/html", "") for data in shown)
    for kind in ("problem", "solutions", "count", "search", "family"):
        assert f'class="excover-{kind}"' in html, kind
    assert "9,356" in html  # the 6x10 count, checked in the notebook by another route
    # the small family's diagram, and the pictures of the tiling and the queens
    assert sum("image/svg+xml" in data for data in shown) >= 4
