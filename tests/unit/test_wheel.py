"""The wheel carries both packages and the front end, and imports outside the checkout."""

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_built_wheel_imports_and_ships_the_javascript(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path / "dist"),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("jaxdbg_widgets-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names if n.startswith("jaxdbg_widgets/static/")}
    front_end = {p.name for pattern in ("*.js", "*.css") for p in (REPO / "js").glob(pattern)}
    assert "widgets.css" in front_end
    assert front_end <= shipped
    assert not any("/test/" in n for n in names if n.startswith("jaxdbg_widgets/static/"))
    assert "jaxdbg/__init__.py" in names

    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    probe = (
        "import jaxdbg, jaxdbg_widgets, jaxdbg_widgets._assets as a;"
        "print(jaxdbg_widgets.__file__); print(a.asset('escape.js'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(target))
    assert out[1] == str(target / "jaxdbg_widgets" / "static" / "escape.js")
