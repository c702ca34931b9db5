"""SKILL.md that is a directory, a FIFO, a socket or unreadable; special files inside a skill."""

from __future__ import annotations

import os
import socket

import pytest
from conftest import simple_skill, write_skill
from hardening_support import baseline, check_contained, finding_paths, run_case
from site_checks import served_files


def bind_socket(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cwd = os.getcwd()
    os.chdir(path.parent)  # AF_UNIX paths are limited to 108 bytes: bind by a short relative name
    try:
        sock.bind(path.name)
    finally:
        os.chdir(cwd)
    return sock


SOCKETS: list[socket.socket] = []


def hostile(source, _outside):
    (source / "sp" / "md-dir" / "SKILL.md").mkdir(parents=True)
    (source / "sp" / "md-fifo").mkdir(parents=True)
    os.mkfifo(source / "sp" / "md-fifo" / "SKILL.md")  # opening it for reading would block forever
    (source / "sp" / "md-socket").mkdir(parents=True)
    SOCKETS.append(bind_socket(source / "sp" / "md-socket" / "SKILL.md"))
    link_to_fifo = source / "sp" / "md-link-fifo"
    link_to_fifo.mkdir(parents=True)
    os.mkfifo(link_to_fifo / "pipe")
    os.symlink("pipe", link_to_fifo / "SKILL.md")
    write_skill(source, "sp/md-locked", simple_skill("md-locked"))
    folder = write_skill(source, "sp/files", simple_skill("files"), {"ok.md": "fine"})
    os.mkfifo(folder / "pipe.md")
    SOCKETS.append(bind_socket(folder / "sock"))
    os.symlink("pipe.md", folder / "link-to-pipe.md")
    write_skill(source, "sp/locked-dir", simple_skill("locked-dir"), {"private/a.md": "a", "open.md": "o"})


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    """Unreadable files are simulated at the system-call level too: the tests may run as root."""
    real_open, real_scandir = os.open, os.scandir

    def guarded_open(path, flags, *args, **kwargs):
        if str(path).endswith("md-locked/SKILL.md"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    def guarded_scandir(path="."):
        if str(path).endswith("locked-dir/private"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    os.open, os.scandir = guarded_open, guarded_scandir
    try:
        root = tmp_path_factory.mktemp("special")
        (root / "src" / "sp" / "md-locked").mkdir(parents=True)
        return run_case(root, hostile)
    finally:
        os.open, os.scandir = real_open, real_scandir
        for sock in SOCKETS:
            sock.close()


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return baseline(tmp_path_factory)


def test_the_build_is_contained(case, honest):
    check_contained(case, honest)


def test_skill_md_that_is_not_a_regular_file_is_reported_and_no_skill(case):
    assert finding_paths(case, "L011") == [
        "sp/md-dir/SKILL.md",
        "sp/md-fifo/SKILL.md",
        "sp/md-link-fifo/SKILL.md",
        "sp/md-socket/SKILL.md",
    ]
    kinds = {f.path.split("/")[1]: f.message for f in case.findings("L011")}
    assert "directory" in kinds["md-dir"] and "named pipe" in kinds["md-fifo"] and "socket" in kinds["md-socket"]
    special = ("sp/md-dir", "sp/md-fifo", "sp/md-link-fifo", "sp/md-socket")
    assert not [i for i in case.published_ids() + case.left_out_ids() if i in special]


def test_unreadable_skill_md_and_folder_are_reported(case):
    assert "sp/md-locked/SKILL.md" in finding_paths(case, "L010")
    assert "sp/locked-dir/private" in finding_paths(case, "L010")
    assert "sp/md-locked" not in case.published_ids()
    assert "sp/md-locked" in case.left_out_ids()  # a skill found but unreadable is listed, with its reason
    assert sorted(served_files(case.out, "sp/locked-dir")) == ["SKILL.md", "open.md"]


def test_special_files_inside_a_skill_are_left_out(case):
    assert finding_paths(case, "L009") == ["sp/files/link-to-pipe.md", "sp/files/pipe.md", "sp/files/sock"]
    assert sorted(served_files(case.out, "sp/files")) == ["SKILL.md", "ok.md"]
