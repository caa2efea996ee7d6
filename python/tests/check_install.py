"""An install puts the module where python3 finds it: installs the build into a staging
folder (DESTDIR), imports the module from there, and checks that the folder it went to,
without the staging prefix, is on this interpreter's own sys.path when the install prefix
is /usr/local or /usr (the prefixes a Debian python3 searches).

    python3 check_install.py CMAKE BUILD_DIR STAGE PREFIX INSTALL_DIR
"""
import os
import shutil
import subprocess
import sys


def main():
    cmake, build, stage, prefix, install_dir = sys.argv[1:6]
    shutil.rmtree(stage, ignore_errors=True)
    subprocess.run([cmake, "--install", build], check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "DESTDIR": stage})
    target = os.path.join(prefix, install_dir)
    staged = stage + target
    found = [f for f in os.listdir(staged) if f.startswith("simdcollide.")]
    assert found, f"no module installed in {staged}"
    subprocess.run([sys.executable, "-c", "import simdcollide, sys; "
                    f"assert simdcollide.__file__.startswith({staged!r}), simdcollide.__file__"],
                   check=True, cwd=stage, env={**os.environ, "PYTHONPATH": staged})
    if prefix in ("/usr/local", "/usr"):
        assert target in sys.path, f"{target} is not on {sys.executable}'s sys.path: {sys.path}"
    print(f"installed to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
