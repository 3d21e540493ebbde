// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// StakeVaultMetaData contains all meta data concerning the StakeVault contract.
var StakeVaultMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"token_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"admin\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AccessControlBadConfirmation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"neededRole\",\"type\":\"bytes32\"}],\"name\":\"AccessControlUnauthorizedAccount\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"InsufficientStake\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Deposited\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"previousAdminRole\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"newAdminRole\",\"type\":\"bytes32\"}],\"name\":\"RoleAdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleGranted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"RoleRevoked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"requestedAmount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"actualAmount\",\"type\":\"uint256\"}],\"name\":\"Slashed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DEFAULT_ADMIN_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"SLASHER_ROLE\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"depositFor\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"}],\"name\":\"getRoleAdmin\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"grantRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"hasRole\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"callerConfirmation\",\"type\":\"address\"}],\"name\":\"renounceRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"role\",\"type\":\"bytes32\"},{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"revokeRole\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"requestedAmount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"recipient\",\"type\":\"address\"}],\"name\":\"slash\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"agent\",\"type\":\"address\"}],\"name\":\"stakeOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token\",\"outputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	Bin: "0x60a060405234801561000f575f5ffd5b50604051610c57380380610c5783398101604081905261002e9161014c565b600180556001600160a01b038216158061004f57506001600160a01b038116155b1561006d5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0382166080526100845f8261008c565b505050610184565b5f828152602081815260408083206001600160a01b038516845290915281205460ff1661012c575f838152602081815260408083206001600160a01b03861684529091529020805460ff191660011790556100e43390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a450600161012f565b505f5b92915050565b6001600160a01b0381168114610149575f5ffd5b50565b5f5f6040838503121561015d575f5ffd5b825161016881610135565b602084015190925061017981610135565b809150509250929050565b608051610aa66101b15f395f81816102360152818161032f01528181610530015261077f0152610aa65ff3fe608060405234801561000f575f5ffd5b50600436106100e5575f3560e01c80635095af6411610088578063b6b55f2511610063578063b6b55f25146101f8578063bfac59901461020b578063d547741f1461021e578063fc0c546a14610231575f5ffd5b80635095af64146101b757806391d14854146101de578063a217fddf146101f1575f5ffd5b80632f2ff15d116100c35780632f2ff15d146101565780632f4f21e21461016957806336568abe1461017c578063426233601461018f575f5ffd5b806301ffc9a7146100e9578063248a9ca3146101115780632e1a7d4d14610141575b5f5ffd5b6100fc6100f7366004610932565b610270565b60405190151581526020015b60405180910390f35b61013361011f366004610960565b5f9081526020819052604090206001015490565b604051908152602001610108565b61015461014f366004610960565b6102a6565b005b610154610164366004610992565b6103a0565b6101546101773660046109bc565b6103ca565b61015461018a366004610992565b6103e9565b61013361019d3660046109e4565b6001600160a01b03165f9081526002602052604090205490565b6101337f12b42e8a160f6064dc959c6f251e3af0750ad213dbecf573b4710d67d6c28e3981565b6100fc6101ec366004610992565b610421565b6101335f81565b610154610206366004610960565b610449565b6101546102193660046109fd565b610464565b61015461022c366004610992565b6105b8565b6102587f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610108565b5f6001600160e01b03198216637965db0b60e01b14806102a057506301ffc9a760e01b6001600160e01b03198316145b92915050565b6102ae6105dc565b805f036102ce57604051631f2a200560e01b815260040160405180910390fd5b335f908152600260205260409020548082111561030d576040516322df051360e11b815260048101829052602481018390526044015b60405180910390fd5b6103178282610a4a565b335f8181526002602052604090209190915561035e907f00000000000000000000000000000000000000000000000000000000000000006001600160a01b03169084610606565b60405182815233907f7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d59060200160405180910390a25061039d60018055565b50565b5f828152602081905260409020600101546103ba81610665565b6103c4838361066f565b50505050565b6103d26105dc565b6103dc82826106fe565b6103e560018055565b5050565b6001600160a01b03811633146104125760405163334bd91960e11b815260040160405180910390fd5b61041c82826107eb565b505050565b5f918252602082815260408084206001600160a01b0393909316845291905290205460ff1690565b6104516105dc565b61045b33826106fe565b61039d60018055565b7f12b42e8a160f6064dc959c6f251e3af0750ad213dbecf573b4710d67d6c28e3961048e81610665565b6104966105dc565b6001600160a01b03841615806104b357506001600160a01b038216155b156104d15760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0384165f90815260026020526040812054908185106104f757816104f9565b845b90506105058183610a4a565b6001600160a01b0387165f908152600260205260409020558015610557576105576001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000168583610606565b836001600160a01b0316866001600160a01b03167f2ad67d4a3e40fbdc9faeef32237ae01635b2ec4451e4e61d0bafed3606cfa42187846040516105a5929190918252602082015260400190565b60405180910390a350506103c460018055565b5f828152602081905260409020600101546105d281610665565b6103c483836107eb565b6002600154036105ff57604051633ee5aeb560e01b815260040160405180910390fd5b6002600155565b6040516001600160a01b0383811660248301526044820183905261041c91859182169063a9059cbb906064015b604051602081830303815290604052915060e01b6020820180516001600160e01b038381831617835250505050610854565b61039d81336108c0565b5f61067a8383610421565b6106f7575f838152602081815260408083206001600160a01b03861684529091529020805460ff191660011790556106af3390565b6001600160a01b0316826001600160a01b0316847f2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d60405160405180910390a45060016102a0565b505f6102a0565b805f0361071e57604051631f2a200560e01b815260040160405180910390fd5b6001600160a01b0382166107455760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0382165f908152600260205260408120805483929061076c908490610a5d565b909155506107a790506001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000163330846108f9565b6040518181526001600160a01b0383169033907f8752a472e571a816aea92eec8dae9baf628e840f4929fbcc2d155e6233ff68a79060200160405180910390a35050565b5f6107f68383610421565b156106f7575f838152602081815260408083206001600160a01b0386168085529252808320805460ff1916905551339286917ff6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b9190a45060016102a0565b5f5f60205f8451602086015f885af180610873576040513d5f823e3d81fd5b50505f513d9150811561088a578060011415610897565b6001600160a01b0384163b155b156103c457604051635274afe760e01b81526001600160a01b0385166004820152602401610304565b6108ca8282610421565b6103e55760405163e2517d3f60e01b81526001600160a01b038216600482015260248101839052604401610304565b6040516001600160a01b0384811660248301528381166044830152606482018390526103c49186918216906323b872dd90608401610633565b5f60208284031215610942575f5ffd5b81356001600160e01b031981168114610959575f5ffd5b9392505050565b5f60208284031215610970575f5ffd5b5035919050565b80356001600160a01b038116811461098d575f5ffd5b919050565b5f5f604083850312156109a3575f5ffd5b823591506109b360208401610977565b90509250929050565b5f5f604083850312156109cd575f5ffd5b6109d683610977565b946020939093013593505050565b5f602082840312156109f4575f5ffd5b61095982610977565b5f5f5f60608486031215610a0f575f5ffd5b610a1884610977565b925060208401359150610a2d60408501610977565b90509250925092565b634e487b7160e01b5f52601160045260245ffd5b818103818111156102a0576102a0610a36565b808201808211156102a0576102a0610a3656fea26469706673582212202fbc52131c88a1ff1da3eb97444e902009062950e951b78e673f38a78da3089c64736f6c634300081c0033",
}

// StakeVaultABI is the input ABI used to generate the binding from.
// Deprecated: Use StakeVaultMetaData.ABI instead.
var StakeVaultABI = StakeVaultMetaData.ABI

// StakeVaultBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use StakeVaultMetaData.Bin instead.
var StakeVaultBin = StakeVaultMetaData.Bin

// DeployStakeVault deploys a new Ethereum contract, binding an instance of StakeVault to it.
func DeployStakeVault(auth *bind.TransactOpts, backend bind.ContractBackend, token_ common.Address, admin common.Address) (common.Address, *types.Transaction, *StakeVault, error) {
	parsed, err := StakeVaultMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(StakeVaultBin), backend, token_, admin)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &StakeVault{StakeVaultCaller: StakeVaultCaller{contract: contract}, StakeVaultTransactor: StakeVaultTransactor{contract: contract}, StakeVaultFilterer: StakeVaultFilterer{contract: contract}}, nil
}

// StakeVault is an auto generated Go binding around an Ethereum contract.
type StakeVault struct {
	StakeVaultCaller     // Read-only binding to the contract
	StakeVaultTransactor // Write-only binding to the contract
	StakeVaultFilterer   // Log filterer for contract events
}

// StakeVaultCaller is an auto generated read-only Go binding around an Ethereum contract.
type StakeVaultCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// StakeVaultTransactor is an auto generated write-only Go binding around an Ethereum contract.
type StakeVaultTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// StakeVaultFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type StakeVaultFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// StakeVaultSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type StakeVaultSession struct {
	Contract     *StakeVault       // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// StakeVaultCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type StakeVaultCallerSession struct {
	Contract *StakeVaultCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts     // Call options to use throughout this session
}

// StakeVaultTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type StakeVaultTransactorSession struct {
	Contract     *StakeVaultTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts     // Transaction auth options to use throughout this session
}

// StakeVaultRaw is an auto generated low-level Go binding around an Ethereum contract.
type StakeVaultRaw struct {
	Contract *StakeVault // Generic contract binding to access the raw methods on
}

// StakeVaultCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type StakeVaultCallerRaw struct {
	Contract *StakeVaultCaller // Generic read-only contract binding to access the raw methods on
}

// StakeVaultTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type StakeVaultTransactorRaw struct {
	Contract *StakeVaultTransactor // Generic write-only contract binding to access the raw methods on
}

// NewStakeVault creates a new instance of StakeVault, bound to a specific deployed contract.
func NewStakeVault(address common.Address, backend bind.ContractBackend) (*StakeVault, error) {
	contract, err := bindStakeVault(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &StakeVault{StakeVaultCaller: StakeVaultCaller{contract: contract}, StakeVaultTransactor: StakeVaultTransactor{contract: contract}, StakeVaultFilterer: StakeVaultFilterer{contract: contract}}, nil
}

// NewStakeVaultCaller creates a new read-only instance of StakeVault, bound to a specific deployed contract.
func NewStakeVaultCaller(address common.Address, caller bind.ContractCaller) (*StakeVaultCaller, error) {
	contract, err := bindStakeVault(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &StakeVaultCaller{contract: contract}, nil
}

// NewStakeVaultTransactor creates a new write-only instance of StakeVault, bound to a specific deployed contract.
func NewStakeVaultTransactor(address common.Address, transactor bind.ContractTransactor) (*StakeVaultTransactor, error) {
	contract, err := bindStakeVault(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &StakeVaultTransactor{contract: contract}, nil
}

// NewStakeVaultFilterer creates a new log filterer instance of StakeVault, bound to a specific deployed contract.
func NewStakeVaultFilterer(address common.Address, filterer bind.ContractFilterer) (*StakeVaultFilterer, error) {
	contract, err := bindStakeVault(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &StakeVaultFilterer{contract: contract}, nil
}

// bindStakeVault binds a generic wrapper to an already deployed contract.
func bindStakeVault(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := StakeVaultMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_StakeVault *StakeVaultRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _StakeVault.Contract.StakeVaultCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_StakeVault *StakeVaultRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _StakeVault.Contract.StakeVaultTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_StakeVault *StakeVaultRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _StakeVault.Contract.StakeVaultTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_StakeVault *StakeVaultCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _StakeVault.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_StakeVault *StakeVaultTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _StakeVault.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_StakeVault *StakeVaultTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _StakeVault.Contract.contract.Transact(opts, method, params...)
}

// DEFAULTADMINROLE is a free data retrieval call binding the contract method 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultCaller) DEFAULTADMINROLE(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "DEFAULT_ADMIN_ROLE")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// DEFAULTADMINROLE is a free data retrieval call binding the contract method 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultSession) DEFAULTADMINROLE() ([32]byte, error) {
	return _StakeVault.Contract.DEFAULTADMINROLE(&_StakeVault.CallOpts)
}

// DEFAULTADMINROLE is a free data retrieval call binding the contract method 0xa217fddf.
//
// Solidity: function DEFAULT_ADMIN_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultCallerSession) DEFAULTADMINROLE() ([32]byte, error) {
	return _StakeVault.Contract.DEFAULTADMINROLE(&_StakeVault.CallOpts)
}

// SLASHERROLE is a free data retrieval call binding the contract method 0x5095af64.
//
// Solidity: function SLASHER_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultCaller) SLASHERROLE(opts *bind.CallOpts) ([32]byte, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "SLASHER_ROLE")

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// SLASHERROLE is a free data retrieval call binding the contract method 0x5095af64.
//
// Solidity: function SLASHER_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultSession) SLASHERROLE() ([32]byte, error) {
	return _StakeVault.Contract.SLASHERROLE(&_StakeVault.CallOpts)
}

// SLASHERROLE is a free data retrieval call binding the contract method 0x5095af64.
//
// Solidity: function SLASHER_ROLE() view returns(bytes32)
func (_StakeVault *StakeVaultCallerSession) SLASHERROLE() ([32]byte, error) {
	return _StakeVault.Contract.SLASHERROLE(&_StakeVault.CallOpts)
}

// GetRoleAdmin is a free data retrieval call binding the contract method 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (_StakeVault *StakeVaultCaller) GetRoleAdmin(opts *bind.CallOpts, role [32]byte) ([32]byte, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "getRoleAdmin", role)

	if err != nil {
		return *new([32]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)

	return out0, err

}

// GetRoleAdmin is a free data retrieval call binding the contract method 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (_StakeVault *StakeVaultSession) GetRoleAdmin(role [32]byte) ([32]byte, error) {
	return _StakeVault.Contract.GetRoleAdmin(&_StakeVault.CallOpts, role)
}

// GetRoleAdmin is a free data retrieval call binding the contract method 0x248a9ca3.
//
// Solidity: function getRoleAdmin(bytes32 role) view returns(bytes32)
func (_StakeVault *StakeVaultCallerSession) GetRoleAdmin(role [32]byte) ([32]byte, error) {
	return _StakeVault.Contract.GetRoleAdmin(&_StakeVault.CallOpts, role)
}

// HasRole is a free data retrieval call binding the contract method 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (_StakeVault *StakeVaultCaller) HasRole(opts *bind.CallOpts, role [32]byte, account common.Address) (bool, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "hasRole", role, account)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// HasRole is a free data retrieval call binding the contract method 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (_StakeVault *StakeVaultSession) HasRole(role [32]byte, account common.Address) (bool, error) {
	return _StakeVault.Contract.HasRole(&_StakeVault.CallOpts, role, account)
}

// HasRole is a free data retrieval call binding the contract method 0x91d14854.
//
// Solidity: function hasRole(bytes32 role, address account) view returns(bool)
func (_StakeVault *StakeVaultCallerSession) HasRole(role [32]byte, account common.Address) (bool, error) {
	return _StakeVault.Contract.HasRole(&_StakeVault.CallOpts, role, account)
}

// StakeOf is a free data retrieval call binding the contract method 0x42623360.
//
// Solidity: function stakeOf(address agent) view returns(uint256)
func (_StakeVault *StakeVaultCaller) StakeOf(opts *bind.CallOpts, agent common.Address) (*big.Int, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "stakeOf", agent)

	if err != nil {
		return *new(*big.Int), err
	}

	out0 := *abi.ConvertType(out[0], new(*big.Int)).(**big.Int)

	return out0, err

}

// StakeOf is a free data retrieval call binding the contract method 0x42623360.
//
// Solidity: function stakeOf(address agent) view returns(uint256)
func (_StakeVault *StakeVaultSession) StakeOf(agent common.Address) (*big.Int, error) {
	return _StakeVault.Contract.StakeOf(&_StakeVault.CallOpts, agent)
}

// StakeOf is a free data retrieval call binding the contract method 0x42623360.
//
// Solidity: function stakeOf(address agent) view returns(uint256)
func (_StakeVault *StakeVaultCallerSession) StakeOf(agent common.Address) (*big.Int, error) {
	return _StakeVault.Contract.StakeOf(&_StakeVault.CallOpts, agent)
}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_StakeVault *StakeVaultCaller) SupportsInterface(opts *bind.CallOpts, interfaceId [4]byte) (bool, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "supportsInterface", interfaceId)

	if err != nil {
		return *new(bool), err
	}

	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)

	return out0, err

}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_StakeVault *StakeVaultSession) SupportsInterface(interfaceId [4]byte) (bool, error) {
	return _StakeVault.Contract.SupportsInterface(&_StakeVault.CallOpts, interfaceId)
}

// SupportsInterface is a free data retrieval call binding the contract method 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (_StakeVault *StakeVaultCallerSession) SupportsInterface(interfaceId [4]byte) (bool, error) {
	return _StakeVault.Contract.SupportsInterface(&_StakeVault.CallOpts, interfaceId)
}

// Token is a free data retrieval call binding the contract method 0xfc0c546a.
//
// Solidity: function token() view returns(address)
func (_StakeVault *StakeVaultCaller) Token(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _StakeVault.contract.Call(opts, &out, "token")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Token is a free data retrieval call binding the contract method 0xfc0c546a.
//
// Solidity: function token() view returns(address)
func (_StakeVault *StakeVaultSession) Token() (common.Address, error) {
	return _StakeVault.Contract.Token(&_StakeVault.CallOpts)
}

// Token is a free data retrieval call binding the contract method 0xfc0c546a.
//
// Solidity: function token() view returns(address)
func (_StakeVault *StakeVaultCallerSession) Token() (common.Address, error) {
	return _StakeVault.Contract.Token(&_StakeVault.CallOpts)
}

// Deposit is a paid mutator transaction binding the contract method 0xb6b55f25.
//
// Solidity: function deposit(uint256 amount) returns()
func (_StakeVault *StakeVaultTransactor) Deposit(opts *bind.TransactOpts, amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "deposit", amount)
}

// Deposit is a paid mutator transaction binding the contract method 0xb6b55f25.
//
// Solidity: function deposit(uint256 amount) returns()
func (_StakeVault *StakeVaultSession) Deposit(amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.Deposit(&_StakeVault.TransactOpts, amount)
}

// Deposit is a paid mutator transaction binding the contract method 0xb6b55f25.
//
// Solidity: function deposit(uint256 amount) returns()
func (_StakeVault *StakeVaultTransactorSession) Deposit(amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.Deposit(&_StakeVault.TransactOpts, amount)
}

// DepositFor is a paid mutator transaction binding the contract method 0x2f4f21e2.
//
// Solidity: function depositFor(address agent, uint256 amount) returns()
func (_StakeVault *StakeVaultTransactor) DepositFor(opts *bind.TransactOpts, agent common.Address, amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "depositFor", agent, amount)
}

// DepositFor is a paid mutator transaction binding the contract method 0x2f4f21e2.
//
// Solidity: function depositFor(address agent, uint256 amount) returns()
func (_StakeVault *StakeVaultSession) DepositFor(agent common.Address, amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.DepositFor(&_StakeVault.TransactOpts, agent, amount)
}

// DepositFor is a paid mutator transaction binding the contract method 0x2f4f21e2.
//
// Solidity: function depositFor(address agent, uint256 amount) returns()
func (_StakeVault *StakeVaultTransactorSession) DepositFor(agent common.Address, amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.DepositFor(&_StakeVault.TransactOpts, agent, amount)
}

// GrantRole is a paid mutator transaction binding the contract method 0x2f2ff15d.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultTransactor) GrantRole(opts *bind.TransactOpts, role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "grantRole", role, account)
}

// GrantRole is a paid mutator transaction binding the contract method 0x2f2ff15d.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultSession) GrantRole(role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.GrantRole(&_StakeVault.TransactOpts, role, account)
}

// GrantRole is a paid mutator transaction binding the contract method 0x2f2ff15d.
//
// Solidity: function grantRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultTransactorSession) GrantRole(role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.GrantRole(&_StakeVault.TransactOpts, role, account)
}

// RenounceRole is a paid mutator transaction binding the contract method 0x36568abe.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (_StakeVault *StakeVaultTransactor) RenounceRole(opts *bind.TransactOpts, role [32]byte, callerConfirmation common.Address) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "renounceRole", role, callerConfirmation)
}

// RenounceRole is a paid mutator transaction binding the contract method 0x36568abe.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (_StakeVault *StakeVaultSession) RenounceRole(role [32]byte, callerConfirmation common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.RenounceRole(&_StakeVault.TransactOpts, role, callerConfirmation)
}

// RenounceRole is a paid mutator transaction binding the contract method 0x36568abe.
//
// Solidity: function renounceRole(bytes32 role, address callerConfirmation) returns()
func (_StakeVault *StakeVaultTransactorSession) RenounceRole(role [32]byte, callerConfirmation common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.RenounceRole(&_StakeVault.TransactOpts, role, callerConfirmation)
}

// RevokeRole is a paid mutator transaction binding the contract method 0xd547741f.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultTransactor) RevokeRole(opts *bind.TransactOpts, role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "revokeRole", role, account)
}

// RevokeRole is a paid mutator transaction binding the contract method 0xd547741f.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultSession) RevokeRole(role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.RevokeRole(&_StakeVault.TransactOpts, role, account)
}

// RevokeRole is a paid mutator transaction binding the contract method 0xd547741f.
//
// Solidity: function revokeRole(bytes32 role, address account) returns()
func (_StakeVault *StakeVaultTransactorSession) RevokeRole(role [32]byte, account common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.RevokeRole(&_StakeVault.TransactOpts, role, account)
}

// Slash is a paid mutator transaction binding the contract method 0xbfac5990.
//
// Solidity: function slash(address agent, uint256 requestedAmount, address recipient) returns()
func (_StakeVault *StakeVaultTransactor) Slash(opts *bind.TransactOpts, agent common.Address, requestedAmount *big.Int, recipient common.Address) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "slash", agent, requestedAmount, recipient)
}

// Slash is a paid mutator transaction binding the contract method 0xbfac5990.
//
// Solidity: function slash(address agent, uint256 requestedAmount, address recipient) returns()
func (_StakeVault *StakeVaultSession) Slash(agent common.Address, requestedAmount *big.Int, recipient common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.Slash(&_StakeVault.TransactOpts, agent, requestedAmount, recipient)
}

// Slash is a paid mutator transaction binding the contract method 0xbfac5990.
//
// Solidity: function slash(address agent, uint256 requestedAmount, address recipient) returns()
func (_StakeVault *StakeVaultTransactorSession) Slash(agent common.Address, requestedAmount *big.Int, recipient common.Address) (*types.Transaction, error) {
	return _StakeVault.Contract.Slash(&_StakeVault.TransactOpts, agent, requestedAmount, recipient)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 amount) returns()
func (_StakeVault *StakeVaultTransactor) Withdraw(opts *bind.TransactOpts, amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.contract.Transact(opts, "withdraw", amount)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 amount) returns()
func (_StakeVault *StakeVaultSession) Withdraw(amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.Withdraw(&_StakeVault.TransactOpts, amount)
}

// Withdraw is a paid mutator transaction binding the contract method 0x2e1a7d4d.
//
// Solidity: function withdraw(uint256 amount) returns()
func (_StakeVault *StakeVaultTransactorSession) Withdraw(amount *big.Int) (*types.Transaction, error) {
	return _StakeVault.Contract.Withdraw(&_StakeVault.TransactOpts, amount)
}

// StakeVaultDepositedIterator is returned from FilterDeposited and is used to iterate over the raw logs and unpacked data for Deposited events raised by the StakeVault contract.
type StakeVaultDepositedIterator struct {
	Event *StakeVaultDeposited // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultDepositedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultDeposited)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultDeposited)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultDepositedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultDepositedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultDeposited represents a Deposited event raised by the StakeVault contract.
type StakeVaultDeposited struct {
	Payer  common.Address
	Agent  common.Address
	Amount *big.Int
	Raw    types.Log // Blockchain specific contextual infos
}

// FilterDeposited is a free log retrieval operation binding the contract event 0x8752a472e571a816aea92eec8dae9baf628e840f4929fbcc2d155e6233ff68a7.
//
// Solidity: event Deposited(address indexed payer, address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) FilterDeposited(opts *bind.FilterOpts, payer []common.Address, agent []common.Address) (*StakeVaultDepositedIterator, error) {

	var payerRule []interface{}
	for _, payerItem := range payer {
		payerRule = append(payerRule, payerItem)
	}
	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "Deposited", payerRule, agentRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultDepositedIterator{contract: _StakeVault.contract, event: "Deposited", logs: logs, sub: sub}, nil
}

// WatchDeposited is a free log subscription operation binding the contract event 0x8752a472e571a816aea92eec8dae9baf628e840f4929fbcc2d155e6233ff68a7.
//
// Solidity: event Deposited(address indexed payer, address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) WatchDeposited(opts *bind.WatchOpts, sink chan<- *StakeVaultDeposited, payer []common.Address, agent []common.Address) (event.Subscription, error) {

	var payerRule []interface{}
	for _, payerItem := range payer {
		payerRule = append(payerRule, payerItem)
	}
	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "Deposited", payerRule, agentRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultDeposited)
				if err := _StakeVault.contract.UnpackLog(event, "Deposited", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseDeposited is a log parse operation binding the contract event 0x8752a472e571a816aea92eec8dae9baf628e840f4929fbcc2d155e6233ff68a7.
//
// Solidity: event Deposited(address indexed payer, address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) ParseDeposited(log types.Log) (*StakeVaultDeposited, error) {
	event := new(StakeVaultDeposited)
	if err := _StakeVault.contract.UnpackLog(event, "Deposited", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// StakeVaultRoleAdminChangedIterator is returned from FilterRoleAdminChanged and is used to iterate over the raw logs and unpacked data for RoleAdminChanged events raised by the StakeVault contract.
type StakeVaultRoleAdminChangedIterator struct {
	Event *StakeVaultRoleAdminChanged // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultRoleAdminChangedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultRoleAdminChanged)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultRoleAdminChanged)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultRoleAdminChangedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultRoleAdminChangedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultRoleAdminChanged represents a RoleAdminChanged event raised by the StakeVault contract.
type StakeVaultRoleAdminChanged struct {
	Role              [32]byte
	PreviousAdminRole [32]byte
	NewAdminRole      [32]byte
	Raw               types.Log // Blockchain specific contextual infos
}

// FilterRoleAdminChanged is a free log retrieval operation binding the contract event 0xbd79b86ffe0ab8e8776151514217cd7cacd52c909f66475c3af44e129f0b00ff.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (_StakeVault *StakeVaultFilterer) FilterRoleAdminChanged(opts *bind.FilterOpts, role [][32]byte, previousAdminRole [][32]byte, newAdminRole [][32]byte) (*StakeVaultRoleAdminChangedIterator, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var previousAdminRoleRule []interface{}
	for _, previousAdminRoleItem := range previousAdminRole {
		previousAdminRoleRule = append(previousAdminRoleRule, previousAdminRoleItem)
	}
	var newAdminRoleRule []interface{}
	for _, newAdminRoleItem := range newAdminRole {
		newAdminRoleRule = append(newAdminRoleRule, newAdminRoleItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "RoleAdminChanged", roleRule, previousAdminRoleRule, newAdminRoleRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultRoleAdminChangedIterator{contract: _StakeVault.contract, event: "RoleAdminChanged", logs: logs, sub: sub}, nil
}

// WatchRoleAdminChanged is a free log subscription operation binding the contract event 0xbd79b86ffe0ab8e8776151514217cd7cacd52c909f66475c3af44e129f0b00ff.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (_StakeVault *StakeVaultFilterer) WatchRoleAdminChanged(opts *bind.WatchOpts, sink chan<- *StakeVaultRoleAdminChanged, role [][32]byte, previousAdminRole [][32]byte, newAdminRole [][32]byte) (event.Subscription, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var previousAdminRoleRule []interface{}
	for _, previousAdminRoleItem := range previousAdminRole {
		previousAdminRoleRule = append(previousAdminRoleRule, previousAdminRoleItem)
	}
	var newAdminRoleRule []interface{}
	for _, newAdminRoleItem := range newAdminRole {
		newAdminRoleRule = append(newAdminRoleRule, newAdminRoleItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "RoleAdminChanged", roleRule, previousAdminRoleRule, newAdminRoleRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultRoleAdminChanged)
				if err := _StakeVault.contract.UnpackLog(event, "RoleAdminChanged", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseRoleAdminChanged is a log parse operation binding the contract event 0xbd79b86ffe0ab8e8776151514217cd7cacd52c909f66475c3af44e129f0b00ff.
//
// Solidity: event RoleAdminChanged(bytes32 indexed role, bytes32 indexed previousAdminRole, bytes32 indexed newAdminRole)
func (_StakeVault *StakeVaultFilterer) ParseRoleAdminChanged(log types.Log) (*StakeVaultRoleAdminChanged, error) {
	event := new(StakeVaultRoleAdminChanged)
	if err := _StakeVault.contract.UnpackLog(event, "RoleAdminChanged", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// StakeVaultRoleGrantedIterator is returned from FilterRoleGranted and is used to iterate over the raw logs and unpacked data for RoleGranted events raised by the StakeVault contract.
type StakeVaultRoleGrantedIterator struct {
	Event *StakeVaultRoleGranted // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultRoleGrantedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultRoleGranted)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultRoleGranted)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultRoleGrantedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultRoleGrantedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultRoleGranted represents a RoleGranted event raised by the StakeVault contract.
type StakeVaultRoleGranted struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterRoleGranted is a free log retrieval operation binding the contract event 0x2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) FilterRoleGranted(opts *bind.FilterOpts, role [][32]byte, account []common.Address, sender []common.Address) (*StakeVaultRoleGrantedIterator, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}
	var senderRule []interface{}
	for _, senderItem := range sender {
		senderRule = append(senderRule, senderItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "RoleGranted", roleRule, accountRule, senderRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultRoleGrantedIterator{contract: _StakeVault.contract, event: "RoleGranted", logs: logs, sub: sub}, nil
}

// WatchRoleGranted is a free log subscription operation binding the contract event 0x2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) WatchRoleGranted(opts *bind.WatchOpts, sink chan<- *StakeVaultRoleGranted, role [][32]byte, account []common.Address, sender []common.Address) (event.Subscription, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}
	var senderRule []interface{}
	for _, senderItem := range sender {
		senderRule = append(senderRule, senderItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "RoleGranted", roleRule, accountRule, senderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultRoleGranted)
				if err := _StakeVault.contract.UnpackLog(event, "RoleGranted", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseRoleGranted is a log parse operation binding the contract event 0x2f8788117e7eff1d82e926ec794901d17c78024a50270940304540a733656f0d.
//
// Solidity: event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) ParseRoleGranted(log types.Log) (*StakeVaultRoleGranted, error) {
	event := new(StakeVaultRoleGranted)
	if err := _StakeVault.contract.UnpackLog(event, "RoleGranted", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// StakeVaultRoleRevokedIterator is returned from FilterRoleRevoked and is used to iterate over the raw logs and unpacked data for RoleRevoked events raised by the StakeVault contract.
type StakeVaultRoleRevokedIterator struct {
	Event *StakeVaultRoleRevoked // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultRoleRevokedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultRoleRevoked)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultRoleRevoked)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultRoleRevokedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultRoleRevokedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultRoleRevoked represents a RoleRevoked event raised by the StakeVault contract.
type StakeVaultRoleRevoked struct {
	Role    [32]byte
	Account common.Address
	Sender  common.Address
	Raw     types.Log // Blockchain specific contextual infos
}

// FilterRoleRevoked is a free log retrieval operation binding the contract event 0xf6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) FilterRoleRevoked(opts *bind.FilterOpts, role [][32]byte, account []common.Address, sender []common.Address) (*StakeVaultRoleRevokedIterator, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}
	var senderRule []interface{}
	for _, senderItem := range sender {
		senderRule = append(senderRule, senderItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "RoleRevoked", roleRule, accountRule, senderRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultRoleRevokedIterator{contract: _StakeVault.contract, event: "RoleRevoked", logs: logs, sub: sub}, nil
}

// WatchRoleRevoked is a free log subscription operation binding the contract event 0xf6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) WatchRoleRevoked(opts *bind.WatchOpts, sink chan<- *StakeVaultRoleRevoked, role [][32]byte, account []common.Address, sender []common.Address) (event.Subscription, error) {

	var roleRule []interface{}
	for _, roleItem := range role {
		roleRule = append(roleRule, roleItem)
	}
	var accountRule []interface{}
	for _, accountItem := range account {
		accountRule = append(accountRule, accountItem)
	}
	var senderRule []interface{}
	for _, senderItem := range sender {
		senderRule = append(senderRule, senderItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "RoleRevoked", roleRule, accountRule, senderRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultRoleRevoked)
				if err := _StakeVault.contract.UnpackLog(event, "RoleRevoked", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseRoleRevoked is a log parse operation binding the contract event 0xf6391f5c32d9c69d2a47ea670b442974b53935d1edc7fd64eb21e047a839171b.
//
// Solidity: event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)
func (_StakeVault *StakeVaultFilterer) ParseRoleRevoked(log types.Log) (*StakeVaultRoleRevoked, error) {
	event := new(StakeVaultRoleRevoked)
	if err := _StakeVault.contract.UnpackLog(event, "RoleRevoked", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// StakeVaultSlashedIterator is returned from FilterSlashed and is used to iterate over the raw logs and unpacked data for Slashed events raised by the StakeVault contract.
type StakeVaultSlashedIterator struct {
	Event *StakeVaultSlashed // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultSlashedIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultSlashed)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultSlashed)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultSlashedIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultSlashedIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultSlashed represents a Slashed event raised by the StakeVault contract.
type StakeVaultSlashed struct {
	Agent           common.Address
	Recipient       common.Address
	RequestedAmount *big.Int
	ActualAmount    *big.Int
	Raw             types.Log // Blockchain specific contextual infos
}

// FilterSlashed is a free log retrieval operation binding the contract event 0x2ad67d4a3e40fbdc9faeef32237ae01635b2ec4451e4e61d0bafed3606cfa421.
//
// Solidity: event Slashed(address indexed agent, address indexed recipient, uint256 requestedAmount, uint256 actualAmount)
func (_StakeVault *StakeVaultFilterer) FilterSlashed(opts *bind.FilterOpts, agent []common.Address, recipient []common.Address) (*StakeVaultSlashedIterator, error) {

	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}
	var recipientRule []interface{}
	for _, recipientItem := range recipient {
		recipientRule = append(recipientRule, recipientItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "Slashed", agentRule, recipientRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultSlashedIterator{contract: _StakeVault.contract, event: "Slashed", logs: logs, sub: sub}, nil
}

// WatchSlashed is a free log subscription operation binding the contract event 0x2ad67d4a3e40fbdc9faeef32237ae01635b2ec4451e4e61d0bafed3606cfa421.
//
// Solidity: event Slashed(address indexed agent, address indexed recipient, uint256 requestedAmount, uint256 actualAmount)
func (_StakeVault *StakeVaultFilterer) WatchSlashed(opts *bind.WatchOpts, sink chan<- *StakeVaultSlashed, agent []common.Address, recipient []common.Address) (event.Subscription, error) {

	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}
	var recipientRule []interface{}
	for _, recipientItem := range recipient {
		recipientRule = append(recipientRule, recipientItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "Slashed", agentRule, recipientRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultSlashed)
				if err := _StakeVault.contract.UnpackLog(event, "Slashed", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseSlashed is a log parse operation binding the contract event 0x2ad67d4a3e40fbdc9faeef32237ae01635b2ec4451e4e61d0bafed3606cfa421.
//
// Solidity: event Slashed(address indexed agent, address indexed recipient, uint256 requestedAmount, uint256 actualAmount)
func (_StakeVault *StakeVaultFilterer) ParseSlashed(log types.Log) (*StakeVaultSlashed, error) {
	event := new(StakeVaultSlashed)
	if err := _StakeVault.contract.UnpackLog(event, "Slashed", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}

// StakeVaultWithdrawnIterator is returned from FilterWithdrawn and is used to iterate over the raw logs and unpacked data for Withdrawn events raised by the StakeVault contract.
type StakeVaultWithdrawnIterator struct {
	Event *StakeVaultWithdrawn // Event containing the contract specifics and raw log

	contract *bind.BoundContract // Generic contract to use for unpacking event data
	event    string              // Event name to use for unpacking event data

	logs chan types.Log        // Log channel receiving the found contract events
	sub  ethereum.Subscription // Subscription for errors, completion and termination
	done bool                  // Whether the subscription completed delivering logs
	fail error                 // Occurred error to stop iteration
}

// Next advances the iterator to the subsequent event, returning whether there
// are any more events found. In case of a retrieval or parsing error, false is
// returned and Error() can be queried for the exact failure.
func (it *StakeVaultWithdrawnIterator) Next() bool {
	// If the iterator failed, stop iterating
	if it.fail != nil {
		return false
	}
	// If the iterator completed, deliver directly whatever's available
	if it.done {
		select {
		case log := <-it.logs:
			it.Event = new(StakeVaultWithdrawn)
			if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
				it.fail = err
				return false
			}
			it.Event.Raw = log
			return true

		default:
			return false
		}
	}
	// Iterator still in progress, wait for either a data or an error event
	select {
	case log := <-it.logs:
		it.Event = new(StakeVaultWithdrawn)
		if err := it.contract.UnpackLog(it.Event, it.event, log); err != nil {
			it.fail = err
			return false
		}
		it.Event.Raw = log
		return true

	case err := <-it.sub.Err():
		it.done = true
		it.fail = err
		return it.Next()
	}
}

// Error returns any retrieval or parsing error occurred during filtering.
func (it *StakeVaultWithdrawnIterator) Error() error {
	return it.fail
}

// Close terminates the iteration process, releasing any pending underlying
// resources.
func (it *StakeVaultWithdrawnIterator) Close() error {
	it.sub.Unsubscribe()
	return nil
}

// StakeVaultWithdrawn represents a Withdrawn event raised by the StakeVault contract.
type StakeVaultWithdrawn struct {
	Agent  common.Address
	Amount *big.Int
	Raw    types.Log // Blockchain specific contextual infos
}

// FilterWithdrawn is a free log retrieval operation binding the contract event 0x7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d5.
//
// Solidity: event Withdrawn(address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) FilterWithdrawn(opts *bind.FilterOpts, agent []common.Address) (*StakeVaultWithdrawnIterator, error) {

	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}

	logs, sub, err := _StakeVault.contract.FilterLogs(opts, "Withdrawn", agentRule)
	if err != nil {
		return nil, err
	}
	return &StakeVaultWithdrawnIterator{contract: _StakeVault.contract, event: "Withdrawn", logs: logs, sub: sub}, nil
}

// WatchWithdrawn is a free log subscription operation binding the contract event 0x7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d5.
//
// Solidity: event Withdrawn(address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) WatchWithdrawn(opts *bind.WatchOpts, sink chan<- *StakeVaultWithdrawn, agent []common.Address) (event.Subscription, error) {

	var agentRule []interface{}
	for _, agentItem := range agent {
		agentRule = append(agentRule, agentItem)
	}

	logs, sub, err := _StakeVault.contract.WatchLogs(opts, "Withdrawn", agentRule)
	if err != nil {
		return nil, err
	}
	return event.NewSubscription(func(quit <-chan struct{}) error {
		defer sub.Unsubscribe()
		for {
			select {
			case log := <-logs:
				// New log arrived, parse the event and forward to the user
				event := new(StakeVaultWithdrawn)
				if err := _StakeVault.contract.UnpackLog(event, "Withdrawn", log); err != nil {
					// If the signature doesn't match, skip this log.
					if errors.Is(err, bind.ErrEventSignatureMismatch) {
						continue
					}
					return err
				}
				event.Raw = log

				select {
				case sink <- event:
				case err := <-sub.Err():
					return err
				case <-quit:
					return nil
				}
			case err := <-sub.Err():
				return err
			case <-quit:
				return nil
			}
		}
	}), nil
}

// ParseWithdrawn is a log parse operation binding the contract event 0x7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d5.
//
// Solidity: event Withdrawn(address indexed agent, uint256 amount)
func (_StakeVault *StakeVaultFilterer) ParseWithdrawn(log types.Log) (*StakeVaultWithdrawn, error) {
	event := new(StakeVaultWithdrawn)
	if err := _StakeVault.contract.UnpackLog(event, "Withdrawn", log); err != nil {
		return nil, err
	}
	event.Raw = log
	return event, nil
}
