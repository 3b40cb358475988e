"""The posekit command line, for pipelines.

  posekit upload FILE|DIR…                     one asset per file (a folder: every model file in it)
  posekit upload --together a.gltf a.bin       the files as one asset (a model and its companions)
  posekit bake FILE --clip Walk --fps 30 --out frames.ndjson|frames.bin
  posekit render FILE --clip Walk --time 0.5 --out thumb.png
  posekit convert FILE --out anim.glb [--compress meshopt]
  posekit retarget SOURCE TARGET --out anim.glb|report.json

FILE may be a folder of model files (then --out is a folder, and files are worked on in parallel, at most --jobs
at once). The service is --url or $POSEKIT_URL (default http://localhost:8080); credentials --api-key or
$POSEKIT_API_KEY, or $POSEKIT_TOKEN (an access token).

Exit codes: 0 every file done; 1 the service refused some (each one's problem on stderr, one line:
`posekit: FILE: STATUS TITLE: DETAIL`); 2 bad usage or a missing input file; 3 the service could not be reached.
Standard output carries results only (tab-separated), so `cut` and `while read` work on it.
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO

import httpx

from ._client import Posekit
from ._core import PosekitError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3
MODEL_EXTENSIONS = {".glb", ".gltf", ".dae", ".fbx", ".x", ".iqm", ".bvh", ".md5mesh", ".zip", ".vrm", ".vrma"}


class Usage(Exception):
    pass


class Progress:
    """A progress line on stderr when it is a terminal (or --progress): done/total and the current item."""

    def __init__(self, total: int, enabled: bool, stream: TextIO = sys.stderr) -> None:
        self.total, self.done, self.enabled, self.stream = total, 0, enabled, stream
        self.lock = threading.Lock()

    def step(self, label: str, n: int = 1) -> None:
        with self.lock:
            self.done += n
            if self.enabled:
                width = 30
                filled = int(width * self.done / max(self.total, 1))
                self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label[:40]:<40}")
                self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.total:
            self.stream.write("\n")
            self.stream.flush()


def inputs(paths: Sequence[str]) -> List[Path]:
    """The model files named, a folder standing for the model files in it (sorted)."""
    out: List[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in MODEL_EXTENSIONS))
        elif p.is_file():
            out.append(p)
        else:
            raise Usage(f"{p}: no such file or folder")
    if not out:
        raise Usage(f"no model files in {', '.join(paths)}")
    return out


def outputs(files: List[Path], out: str, suffix: str, folder_given: bool) -> List[Path]:
    """Where each input's result goes: --out itself for one file, else --out/<stem><suffix>."""
    target = Path(out)
    if len(files) == 1 and not folder_given and not target.is_dir():
        return [target]
    target.mkdir(parents=True, exist_ok=True)
    return [target / (f.stem + suffix) for f in files]


def run_all(files: List[Path], jobs: int, work: Callable[[Path], str], progress: Progress, err: TextIO) -> int:
    """Runs work on every file, at most `jobs` at once; prints each result line in input order."""
    failed = 0
    unreachable = 0

    def one(f: Path) -> Optional[str]:
        nonlocal failed, unreachable
        try:
            return work(f)
        except PosekitError as e:
            failed += 1
            err.write(f"posekit: {f}: {e.status} {e.title}: {e.detail}\n")
        except httpx.TransportError as e:
            unreachable += 1
            err.write(f"posekit: {f}: the service could not be reached: {e}\n")
        except OSError as e:
            failed += 1
            err.write(f"posekit: {f}: {e}\n")
        finally:
            progress.step(f.name)
        return None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, files))
    progress.close()
    for line in results:
        if line is not None:
            print(line)
    if unreachable:
        return EXIT_UNREACHABLE
    return EXIT_FAILED if failed else EXIT_OK


def upload_id(client: Posekit, f: Path) -> str:
    return str(client.upload(f)["id"])


def cmd_upload(client: Posekit, args: argparse.Namespace, progress: Progress, err: TextIO) -> int:
    files = inputs(args.files)
    if args.together:
        progress.total = 1

        def together(_: Path) -> str:
            s = client.upload(*files)
            return f"{s['id']}\t{s['name']}\t{'created' if s['created'] else 'exists'}"
        return run_all(files[:1], 1, together, progress, err)
    progress.total = len(files)

    def one(f: Path) -> str:
        s = client.upload(f)
        return f"{s['id']}\t{f}\t{'created' if s['created'] else 'exists'}"
    return run_all(files, args.jobs, one, progress, err)


def sampling(args: argparse.Namespace) -> Dict[str, Any]:
    s: Dict[str, Any] = {}
    for name in ("clip", "time", "frame", "fps", "normalized", "loop"):
        value = getattr(args, name, None)
        if value is not None:
            s[name] = value
    return s


def cmd_bake(client: Posekit, args: argparse.Namespace, progress: Progress, err: TextIO) -> int:
    files = inputs([args.file])
    if args.out.endswith(".bin"):
        fmt, suffix = "binary", ".bin"
    elif args.out.endswith(".ndjson") or Path(args.out).is_dir() or Path(args.file).is_dir():
        fmt, suffix = ("binary", ".bin") if args.format == "binary" else ("ndjson", ".ndjson")
    else:
        raise Usage(f"--out {args.out}: name a .ndjson or .bin file (or a folder)")
    targets = dict(zip(files, outputs(files, args.out, suffix, Path(args.file).is_dir())))
    progress.total = 0

    def one(f: Path) -> str:
        asset = client.asset(upload_id(client, f))
        if args.end is None:
            clips = asset.summary()["clips"]
            clip = next((c for c in clips if c["name"] == args.clip or str(c["index"]) == args.clip), None)
            if clip is None:
                raise PosekitError(404, {"title": "Unknown clip", "detail": f"clip '{args.clip}' does not exist; clips: "
                                         + ", ".join(f"'{c['name']}'" for c in clips)})
            end = clip["duration"]
        else:
            end = args.end
        spec = {"clip": args.clip, "times": {"start": args.start, "end": end, "fps": args.fps},
                "outputs": args.outputs.split(","), "loop": args.loop, "matrix_layout": args.matrix_layout}
        frames = 0
        target = targets[f]
        partial = target.with_name(target.name + ".part")
        with open(partial, "wb") as out:
            if fmt == "binary":
                # the binary layout is written as the service sent it, streamed
                response = client.send(asset._bake(spec, "binary"))
                try:
                    frames = int(response.headers.get("Posekit-Frames", "0"))
                    with progress.lock:
                        progress.total += frames
                    for chunk in response.iter_bytes():
                        out.write(chunk)
                finally:
                    response.close()
                progress.step(f.name, frames)
            else:
                def started(total: int) -> None:
                    with progress.lock:
                        progress.total += total
                for frame in asset.bake(spec, "ndjson", on_start=started):
                    out.write((_json_line(frame) + "\n").encode())
                    frames += 1
                    progress.step(f.name)
        partial.replace(target)
        return f"{asset.id}\t{f}\t{target}\t{frames}"
    return run_all(files, args.jobs, one, progress, err)


def _json_line(value: Any) -> str:
    import json
    return json.dumps(value, separators=(",", ":"))


def cmd_render(client: Posekit, args: argparse.Namespace, progress: Progress, err: TextIO) -> int:
    files = inputs([args.file])
    targets = dict(zip(files, outputs(files, args.out, ".png", Path(args.file).is_dir())))
    progress.total = len(files)

    def one(f: Path) -> str:
        asset = client.asset(upload_id(client, f))
        png = asset.render(width=args.width, height=args.height, view=args.view, **sampling(args))
        targets[f].write_bytes(png)
        return f"{asset.id}\t{f}\t{targets[f]}"
    return run_all(files, args.jobs, one, progress, err)


def cmd_convert(client: Posekit, args: argparse.Namespace, progress: Progress, err: TextIO) -> int:
    files = inputs([args.file])
    targets = dict(zip(files, outputs(files, args.out, ".glb", Path(args.file).is_dir())))
    progress.total = len(files)

    def one(f: Path) -> str:
        asset = client.asset(upload_id(client, f))
        glb = asset.animated_glb(clips=args.clips.split(",") if args.clips else None, fps=args.fps,
                                 compress=args.compress)
        targets[f].write_bytes(glb)
        return f"{asset.id}\t{f}\t{targets[f]}"
    return run_all(files, args.jobs, one, progress, err)


def cmd_retarget(client: Posekit, args: argparse.Namespace, progress: Progress, err: TextIO) -> int:
    source = inputs([args.source])
    if len(source) != 1:
        raise Usage("retarget takes one source file")
    targets = inputs([args.target])
    json_out = args.out.endswith(".json")
    outs = dict(zip(targets, outputs(targets, args.out, ".json" if json_out else ".glb", Path(args.target).is_dir())))
    progress.total = len(targets)
    source_id = upload_id(client, source[0])

    def one(f: Path) -> str:
        result = client.asset(upload_id(client, f)).retarget(source_id, clips=args.clips.split(",") if args.clips else None)
        new = result["asset"]["id"]
        if json_out:
            outs[f].write_text(_json_line(result) + "\n")
        else:
            outs[f].write_bytes(client.asset(new).animated_glb())
        return f"{new}\t{f}\t{outs[f]}"
    return run_all(targets, args.jobs, one, progress, err)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="posekit", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--url", default=os.environ.get("POSEKIT_URL", "http://localhost:8080"))
    p.add_argument("--api-key", default=os.environ.get("POSEKIT_API_KEY"))
    p.add_argument("--jobs", "-j", type=int, default=4, help="files worked on at once (default 4)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr (default: when stderr is a terminal)")
    # the same options after the command too (`posekit upload --jobs 8 DIR`)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=argparse.SUPPRESS)
    common.add_argument("--api-key", default=argparse.SUPPRESS)
    common.add_argument("--jobs", "-j", type=int, default=argparse.SUPPRESS)
    common.add_argument("--progress", action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="command", required=True)

    up = sub.add_parser("upload", parents=[common], help="upload files (one asset each) and print their ids")
    up.add_argument("files", nargs="+")
    up.add_argument("--together", action="store_true", help="the files are one asset (a model and its companions)")

    def timing(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--clip")
        sp.add_argument("--time", type=float)
        sp.add_argument("--frame", type=float)
        sp.add_argument("--fps", type=float)
        sp.add_argument("--normalized", type=float)
        sp.add_argument("--loop", choices=["clamp", "repeat", "pingpong"])

    bk = sub.add_parser("bake", parents=[common], help="bake a clip's frames to NDJSON or the binary layout")
    bk.add_argument("file")
    bk.add_argument("--clip", required=True)
    bk.add_argument("--fps", type=float, default=30.0)
    bk.add_argument("--start", type=float, default=0.0)
    bk.add_argument("--end", type=float, help="default: the clip's duration")
    bk.add_argument("--loop", choices=["clamp", "repeat", "pingpong"])
    bk.add_argument("--outputs", default="skinningMatrices", help="comma-separated (default skinningMatrices)")
    bk.add_argument("--matrix-layout", choices=["mat4", "mat3x4"])
    bk.add_argument("--format", choices=["ndjson", "binary"], default="ndjson", help="for a folder --out")
    bk.add_argument("--out", required=True)

    rd = sub.add_parser("render", parents=[common], help="posekit's CPU render of a frame, PNG")
    rd.add_argument("file")
    timing(rd)
    rd.add_argument("--width", type=int)
    rd.add_argument("--height", type=int)
    rd.add_argument("--view")
    rd.add_argument("--out", required=True)

    cv = sub.add_parser("convert", parents=[common], help="any upload out as animated glTF (GLB)")
    cv.add_argument("file")
    cv.add_argument("--clips")
    cv.add_argument("--fps", type=float)
    cv.add_argument("--compress", choices=["none", "quantize", "meshopt", "draco"])
    cv.add_argument("--out", required=True)

    rt = sub.add_parser("retarget", parents=[common], help="SOURCE's clips onto TARGET's skeleton: the new asset as GLB, or the report")
    rt.add_argument("source")
    rt.add_argument("target")
    rt.add_argument("--clips")
    rt.add_argument("--out", required=True)
    return p


COMMANDS = {"upload": cmd_upload, "bake": cmd_bake, "render": cmd_render, "convert": cmd_convert, "retarget": cmd_retarget}


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = parser()
    args = p.parse_args(argv)  # exits 2 on bad usage
    err = sys.stderr
    token = os.environ.get("POSEKIT_TOKEN")
    progress = Progress(0, args.progress if args.progress is not None else err.isatty(), err)
    try:
        provider = (lambda refresh, t=token: t) if token else None
        with Posekit(args.url, api_key=args.api_key, token=provider) as client:
            return COMMANDS[args.command](client, args, progress, err)
    except Usage as e:
        err.write(f"posekit: {e}\n")
        return EXIT_USAGE
    except PosekitError as e:
        err.write(f"posekit: {e.status} {e.title}: {e.detail}\n")
        return EXIT_FAILED
    except httpx.TransportError as e:
        err.write(f"posekit: the service at {args.url} could not be reached: {e}\n")
        return EXIT_UNREACHABLE


if __name__ == "__main__":
    sys.exit(main())
